import { mergeTreeChannel, type MergeChannelResult } from '../git/merge-tree-channel.js';
import { mapLimit } from '../traffic/limit-concurrency.js';
import type { WorkingSetFile } from '../traffic/working-set.js';
import { batchedMerges } from './batched-merges.js';
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
  if (cannotMeet(sides)) return { value: 0, conflictedPaths: [], inferred: true };
  return withoutIgnored(await mergeTreeChannel(cwd, sides.a, sides.b), ignore);
}

function cannotMeet(sides: MergeSides): boolean {
  return sides.filesA !== undefined && sides.filesB !== undefined && !pathsMayConflict(sides.filesA, sides.filesB);
}

function withoutIgnored(result: MergeChannelResult, ignore: (path: string) => boolean): MergeChannelResult {
  if (result.value !== 1) return result;
  const conflictedPaths = result.conflictedPaths.filter((path) => !ignore(path));
  return conflictedPaths.length > 0 ? { ...result, conflictedPaths } : { value: 0, conflictedPaths: [] };
}

function sidesOf(pair: ChannelledPair): MergeSides | null {
  const states = pair.states;
  if (!states || pair.merge) return null;
  const files = states.fromBase
    ? { filesA: pair.workingSetA.files, filesB: pair.workingSetB.files }
    : states.filesSinceBase
      ? { filesA: states.filesSinceBase.a, filesB: states.filesSinceBase.b }
      : {};
  return { a: states.a, b: states.b, ...files };
}

/**
 * The merge channel of every pair that has two git states (a beacon without its work commit has none).
 * Many pairs with a proven merge base (hundreds of beacons editing the ownship's files) merge in one
 * batch (batched-merges.ts): the same answers from a constant number of processes.
 */
export async function mergeChannels<P extends ChannelledPair>(pairs: readonly P[], context: GitChannelContext): Promise<(P & ChannelledPair)[]> {
  const sides = pairs.map(sidesOf);
  const wanted = sides.flatMap((side, k) => (side !== null && !cannotMeet(side) ? [k] : []));
  const batched =
    context.commonDir !== undefined && context.proven !== undefined
      ? await batchedMerges({ cwd: context.cwd, commonDir: context.commonDir, pairs, wanted, proven: context.proven })
      : new Map<number, MergeChannelResult>();
  return mapLimit(pairs, context.concurrency, async (pair, k): Promise<P & ChannelledPair> => {
    const side = sides[k];
    if (!side) return pair;
    const known = batched.get(k);
    return { ...pair, merge: known ? withoutIgnored(known, context.ignore) : await mergeChannel(context.cwd, side, context.ignore) };
  });
}
