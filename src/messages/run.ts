/** The stage log as the messages read it (src/run/run-budget.ts). */
interface StageRecordLike {
  readonly stage: string;
  readonly state: string;
  readonly detail?: string;
}

const STAGE_ORDER = ['fetch', 'traffic', 'beacons', 'graph', 'channels', 'scoring'];

function notChecked(stages: readonly StageRecordLike[]): string[] {
  const finished = new Set(stages.filter((s) => s.state !== 'cut').map((s) => s.stage));
  return STAGE_ORDER.filter((stage) => !finished.has(stage));
}

/** Progress lines and notes of the scan pipeline. */
export const runMessages = {
  fetching: (remote: string) => `fetching traffic from ${remote}…`,
  discovering: 'reading worktrees, peer branches and working sets…',
  mergeConflictEvidence: (paths: readonly string[]) =>
    `git merge-tree: the two current states conflict in ${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ` and ${paths.length - 3} more` : ''}`,
  trafficFound: (peers: number, pairs: number) => `${peers} peer${peers === 1 ? '' : 's'}, ${pairs} pair${pairs === 1 ? '' : 's'} compared`,
  graphNotReady: 'dependency channel: import graph not built yet',
  graphStale: (changed: number) => `dependency channel: import graph ${changed} file${changed === 1 ? '' : 's'} behind`,
  noTimeLeft: 'no time left in the budget',
  pushedAtOnce: (peer: string) =>
    `${peer} announced a conflicting push at the same moment as this one: nobody can tell who was first, so this push steers (push again once the two of you have agreed; the next look ranks you as usual)`,
  beaconsNotFetched: (why: string) => `branches fetched, beacons not (${why}): judged on the branches and the last fetched beacons`,
  beaconsRefused: (n: number, maxBytes: number) => `${n} beacon ref${n === 1 ? '' : 's'} refused: beacon.json larger than ${maxBytes} bytes, not fetched`,
  beaconsWithdrawn: (n: number) =>
    `withdrew ${n} beacon${n === 1 ? '' : 's'} of this clone for work that no longer exists (a deleted branch or discarded work)`,
  cut: (budgetMs: number | null, stages: readonly StageRecordLike[], why: string) => {
    const done = stages.filter((s) => s.state === 'done' || s.state === 'partial').map((s) => s.stage);
    const failed = stages.filter((s) => s.state === 'failed').map((s) => `${s.stage}${s.detail ? ` (${s.detail})` : ''}`);
    const cut = stages.find((s) => s.state === 'cut')?.stage;
    const lead = budgetMs === null ? `stopped (${why})` : `reached its ${budgetMs} ms budget${cut ? ` while in ${cut}` : ''} and stopped what it started`;
    return [
      lead,
      `checked: ${done.length > 0 ? done.join(', ') : 'nothing'}`,
      ...(failed.length > 0 ? [`failed: ${failed.join(', ')}`] : []),
      `not checked: ${notChecked(stages).join(', ')}`,
    ].join('; ');
  },
  scoring: (pairs: number) => `scoring ${pairs} pair${pairs === 1 ? '' : 's'}…`,
  messageText: (files: string, subjects: string, intent: string) =>
    [files && `touching ${files}`, subjects && `commits: ${subjects}`, intent && `intent: ${intent}`].filter(Boolean).join('; '),
  /** A message with no shared file, commit or intent (the risk came from another channel): never an empty line. */
  messageWithoutDetail: (risk: number) => `risk ${risk.toFixed(2)}, no shared file, commit or intent to show; \`airspace-hooks check\` says why`,
};
