/**
 * Wording of the text report (src/report/render-text.ts) that is not a check verdict: how a pair
 * of two other agents is named, what the range notation means.
 */
export const reportMessages = {
  /** A pair that does not involve this worktree (scan): named as a pair, never as "you". */
  pairName: (a: string, b: string) => `${a} ↔ ${b}`,
  overlapPair: (path: string, a: string, rangesA: string, b: string, rangesB: string) => `${path}  ${a} ${rangesA}  ${b} ${rangesB}`,
  /** The ownship in the header: its commits since the trunk (unpushed included) and its uncommitted files. */
  ownWork: (commits: number, uncommitted: number) =>
    `${commits} commit${commits === 1 ? '' : 's'} since the trunk + ${uncommitted} uncommitted file${uncommitted === 1 ? '' : 's'}`,
  /** `scan` counts pairs of agents, not peers of this worktree. */
  clearPairs: (n: number) => `clear: ${n} pair${n === 1 ? '' : 's'} of agents`,
  /** `^N` in a range list (src/report/render-text.ts formatRanges): lines added without changing any. */
  insertionLegend: '^N = lines inserted just before line N (no existing line changed)',
  /** The peer works on another machine: it learns of us only through the remote, and only if it runs our hooks. */
  holdRemote: (peer: string) =>
    `hold: you have right of way; ${peer} is advised to steer away if it runs airspace-hooks, once it sees your work (it sees it once you push or run \`airspace-hooks beacon publish\`)`,
};
