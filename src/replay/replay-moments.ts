/**
 * Moment cutting for `airspace-hooks replay`: the same definitions as the merge-scenario data
 * (shared/data/merge-scenarios/README.md, "Earlier moments"), on a repository's own history.
 * Pure: commit chains in, prefixes out. Times are unix SECONDS here (git's %ct), as in the data;
 * the caller converts to the product's epoch ms.
 */

/** One commit of a side's first-parent chain (`rev-list --first-parent --reverse SIDE ^BASE…`). */
export interface ChainCommit {
  readonly sha: string;
  /** Committer time, unix seconds. */
  readonly time: number;
}

/** The both-active fractions replayed; 0.5 is the primary one. */
export const REPLAY_FRACTIONS = [0.25, 0.5, 0.75] as const;

/** When a side's work started: the committer time of its oldest first-parent commit; null when empty. */
export function sideStart(chain: readonly ChainCommit[]): number | null {
  return chain[0]?.time ?? null;
}

/**
 * The both-active cut: T0both = the later of the two sides' starts (the first moment both lines
 * of work exist), t = floor(T0both + f·(T1 − T0both)). Null when a side has no commits at all.
 * With clock skew T0both can be after T1; the cut then lies before T0both and one side is empty
 * there (the caller skips it, as the data does).
 */
export function bothActiveCut(chainA: readonly ChainCommit[], chainB: readonly ChainCommit[], mergeTime: number, fraction: number): number | null {
  const startA = sideStart(chainA);
  const startB = sideStart(chainB);
  if (startA === null || startB === null) return null;
  const t0 = Math.max(startA, startB);
  return Math.floor(t0 + fraction * (mergeTime - t0));
}

/**
 * The side's state at t: walk the chain from the oldest and stop at the FIRST commit newer than t
 * (not "the last commit ≤ t anywhere"): with non-monotone committer times (rebases, skewed clocks)
 * this keeps the prefix an ancestor-closed part of the chain. Null = the side is empty at t.
 */
export function prefixAt(chain: readonly ChainCommit[], t: number): ChainCommit | null {
  let state: ChainCommit | null = null;
  for (const commit of chain) {
    if (commit.time > t) break;
    state = commit;
  }
  return state;
}

/** Index of the prefix in its chain + 1 (first-parent commits up to and including it). */
export function firstParentCount(chain: readonly ChainCommit[], prefix: ChainCommit | null): number {
  return prefix === null ? 0 : chain.indexOf(prefix) + 1;
}
