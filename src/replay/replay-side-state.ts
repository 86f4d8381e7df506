/**
 * What one side looks like at a moment, from the side's commit graph already in memory (no git):
 * the commits up to its prefix, whether the prefix descends from the base, and when each file was
 * last edited. The working set itself comes from the batched diff (replay-collect.ts).
 */
import { lineCommits, type CommitGraph } from '../git/branch-history.js';
import type { WorkingSet } from '../traffic/working-set.js';
import type { ChainCommit } from './replay-moments.js';

export interface SideState {
  /** The side's state at the moment (a commit of its first-parent chain). */
  readonly prefix: string;
  /** Commits in base..prefix, merged-in ones included. */
  readonly commits: number;
  /** Oldest committer time among them, epoch ms. */
  readonly startedAt: number;
  /** The base is an ancestor of the prefix (else the working set needs a virtual merge). */
  readonly descendsFromBase: boolean;
  /** Newest committer time (epoch ms) of a commit of base..prefix listing the path. */
  readonly editTimes: ReadonlyMap<string, number>;
}

/**
 * `lineCommits` walks every parent inside the graph, i.e. exactly `prefix ^bases`. The base is an
 * ancestor of the prefix iff one of those commits has it as a parent: any path down to the base
 * passes through the side's own commits until the base's child.
 */
export function sideStateAt(graph: CommitGraph, prefix: ChainCommit, base: string): SideState {
  const commits = lineCommits(graph, prefix.sha);
  const editTimes = new Map<string, number>();
  let startedAt = Infinity;
  let descendsFromBase = false;
  for (const commit of commits) {
    startedAt = Math.min(startedAt, commit.committedAt);
    if (commit.parents.includes(base)) descendsFromBase = true;
    for (const path of commit.files) if ((editTimes.get(path) ?? -Infinity) < commit.committedAt) editTimes.set(path, commit.committedAt);
  }
  return { prefix: prefix.sha, commits: commits.length, startedAt, descendsFromBase, editTimes };
}

/**
 * Stamps each working-set entry with its last edit (side path first, then base path, as the data
 * does). Entries no commit lists (e.g. only changed by a merge resolution) keep no time: the
 * engine then gives them full weight rather than guessing.
 */
export function withEditTimes(workingSet: WorkingSet, editTimes: ReadonlyMap<string, number>): WorkingSet {
  return {
    base: workingSet.base,
    files: workingSet.files.map((entry) => {
      const time = editTimes.get(entry.path ?? entry.file) ?? editTimes.get(entry.file);
      return time === undefined ? { ...entry, origin: 'committed' as const } : { ...entry, lastEditTime: time, origin: 'committed' as const };
    }),
  };
}
