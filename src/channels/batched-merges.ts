import { isAirspaceError } from '../errors.js';
import type { MergeChannelResult } from '../git/merge-tree-channel.js';
import { mergeConfigByPath, mergeTreeBatch, pathsWithMergeAttributes } from '../git/merge-tree-batch.js';
import { rawChangesBatch, rawKey } from '../git/raw-changes.js';
import { currentRunSignal } from '../git/run-scope.js';
import { batchableShared, conflictsByPair, entryName, planEntries, type PlannedEntry, type SharedFile } from './batch-merge-plan.js';
import type { ChannelledPair } from './types.js';

/** Below this many pairs to merge, one merge-tree each costs fewer processes than the batch (about six). */
export const BATCH_MERGES_FROM = 8;
// Entries per merge-tree process: 2,000 content merges took 0.8–1.8 s in one process on a loaded
// 2-core machine, so a large batch is cut in two halves that merge side by side.
const MAX_ENTRIES = 20_000;
const HALVED_FROM = 1000;

export interface BatchedMergeInput {
  readonly cwd: string;
  /** The repository's common git dir: the batch's scratch objects go under it, never into its store. */
  readonly commonDir: string;
  readonly pairs: readonly ChannelledPair[];
  /** Indexes of the pairs that would each run a merge-tree. */
  readonly wanted: readonly number[];
  /** Each pair's proven single merge base (proven-merge-base.ts), by index. */
  readonly proven: ReadonlyMap<number, string>;
}

/**
 * The merge channel of many proven pairs from a constant number of git processes: the raw changes of
 * both sides since the base (one `diff-tree --stdin`), the config that merges by path and the attributes of
 * the shared paths (one process each), then the batch (`mktree`, `hash-object`, one `merge-tree`
 * per chunk: src/git/merge-tree-batch.ts). Each result is exactly what `git merge-tree` of the pair
 * says (batch-merge-plan.ts says why); a pair the batch cannot reproduce is left out of the map and
 * merged on its own, and so is every pair when any step fails.
 */
export async function batchedMerges(input: BatchedMergeInput): Promise<Map<number, MergeChannelResult>> {
  const pairs = input.wanted.filter((k) => input.proven.has(k));
  if (pairs.length < BATCH_MERGES_FROM) return new Map();
  try {
    return await mergeInBatch(input, pairs);
  } catch (error) {
    if (!isAirspaceError(error) || currentRunSignal()?.aborted) throw error;
    return new Map();
  }
}

async function mergeInBatch(input: BatchedMergeInput, indexes: readonly number[]): Promise<Map<number, MergeChannelResult>> {
  const sides = indexes.map((k) => {
    const states = input.pairs[k]!.states!;
    const base = input.proven.get(k)!;
    return { k, ours: { base, target: states.a }, theirs: { base, target: states.b } };
  });
  const [raw, mergesByPath] = await Promise.all([
    rawChangesBatch(
      input.cwd,
      sides.flatMap((side) => [side.ours, side.theirs]),
    ),
    mergeConfigByPath(input.cwd),
  ]);
  if (mergesByPath) return new Map();
  const shared = new Map<number, SharedFile[]>();
  for (const side of sides) {
    const ours = raw.get(rawKey(side.ours));
    const theirs = raw.get(rawKey(side.theirs));
    const files = ours && theirs ? batchableShared(ours, theirs) : null;
    if (files) shared.set(side.k, files);
  }
  // Every shared file under its real name and its batch name: an attribute on either keeps the pair out.
  const attributed = await pathsWithMergeAttributes(
    input.cwd,
    [...shared].flatMap(([k, files]) => files.flatMap((file, i) => [file.path, entryName(k, i)])),
  );
  const batchable = new Map([...shared].filter(([k, files]) => files.every((file, i) => !attributed.has(file.path) && !attributed.has(entryName(k, i)))));
  const entries = [...batchable.values()].reduce((n, files) => n + files.length, 0);
  const chunks = planEntries(batchable, entries >= HALVED_FROM ? Math.min(MAX_ENTRIES, Math.ceil(entries / 2)) : MAX_ENTRIES);
  const kept = new Set(chunks.flat().map((entry) => entry.pair));
  const conflicted = await mergeTreeBatch(input.cwd, input.commonDir, chunks.map(toBatchEntries));
  const byPair = conflictsByPair(chunks, conflicted);
  const results = new Map<number, MergeChannelResult>();
  for (const [k, files] of shared) {
    // A pair with no shared file merges cleanly (nothing path-level applies to it, see batchableShared).
    if (files.length > 0 && !kept.has(k)) continue;
    const paths = byPair.get(k) ?? [];
    results.set(k, paths.length > 0 ? { value: 1, conflictedPaths: paths } : { value: 0, conflictedPaths: [] });
  }
  return results;
}

function toBatchEntries(chunk: readonly PlannedEntry[]) {
  return chunk.map((entry) => ({ name: entry.name, base: entry.file.base, ours: entry.file.ours, theirs: entry.file.theirs }));
}
