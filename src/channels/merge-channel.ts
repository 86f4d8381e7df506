import { mergeTreeChannel, type MergeChannelResult } from '../git/merge-tree-channel.js';
import { mapLimit } from '../traffic/limit-concurrency.js';
import type { WorkingSetFile } from '../traffic/working-set.js';
import { pathsMayConflict } from './paths-may-conflict.js';
import type { ChannelledPair, GitChannelContext } from './types.js';

/** One pair's two states, and the working sets that say which paths each side touched (when they are those states' diffs). */
export interface MergeSides {
  readonly a: string;
  readonly b: string;
  readonly filesA?: readonly WorkingSetFile[];
  readonly filesB?: readonly WorkingSetFile[];
}

/**
 * The exact textual-merge channel of one pair: `git merge-tree` on the two states. With the
 * sides' files known, pairs whose paths cannot meet skip the process and report clean, marked
 * `inferred`. Ignored files (lockfiles…) are noise in every channel, so a conflict only in them
 * is not one.
 */
export async function mergeChannel(cwd: string, sides: MergeSides, ignore: (path: string) => boolean): Promise<MergeChannelResult> {
  if (sides.filesA && sides.filesB && !pathsMayConflict(sides.filesA, sides.filesB)) return { value: 0, conflictedPaths: [], inferred: true };
  const result = await mergeTreeChannel(cwd, sides.a, sides.b);
  if (result.value !== 1) return result;
  const conflictedPaths = result.conflictedPaths.filter((path) => !ignore(path));
  return conflictedPaths.length > 0 ? { ...result, conflictedPaths } : { value: 0, conflictedPaths: [] };
}

/** The merge channel of every pair that has two git states (a beacon without its work commit has none). */
export async function mergeChannels<P extends ChannelledPair>(pairs: readonly P[], context: GitChannelContext): Promise<(P & ChannelledPair)[]> {
  return mapLimit(pairs, context.concurrency, async (pair): Promise<P & ChannelledPair> => {
    const states = pair.states;
    if (!states || pair.merge) return pair;
    const files = states.fromBase
      ? { filesA: pair.workingSetA.files, filesB: pair.workingSetB.files }
      : states.filesSinceBase
        ? { filesA: states.filesSinceBase.a, filesB: states.filesSinceBase.b }
        : {};
    return { ...pair, merge: await mergeChannel(context.cwd, { a: states.a, b: states.b, ...files }, context.ignore) };
  });
}
