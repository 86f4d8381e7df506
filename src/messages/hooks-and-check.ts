/**
 * What a commit, a push and `check` say: advisories, verdicts with their bypass, the text report,
 * the run. One section per concern, each opened by a `// --- name: what ---` line; a section
 * exports named message objects (`as const`, or a record typed by its codes) and the few functions
 * that word a typed result. Symbols are imported by name.
 */

import { count } from './count.js';

// --- check: advisories and verdicts of check and the hooks; every blocking line carries bypass(hook) ---

/** Wording of advisories and verdicts. Every blocking message carries the bypass. */

/**
 * The bypass of what was blocked: git's own `--no-verify` for that command (a commit's is not a
 * push's), or the switch every shim reads. A check run by hand predicts the pre-push verdict.
 */
export function bypass(hook: string | null): string {
  return `${hook === 'pre-commit' ? 'git commit --no-verify' : 'git push --no-verify'}, or AIRSPACE_HOOKS=0 for one command`;
}

export const checkMessages = {
  levelName: { clear: 'clear', TA: 'traffic', RA: 'RESOLUTION' } as const,
  header: (own: string | null, peers: number) => (own ? `airspace: ${own} vs ${count(peers, 'peer')}` : `airspace: ${count(peers, 'agent')}`),
  /** Where the header's peers came from. */
  sources: (p: { worktrees: number; branches: number; beacons: number; explicit: number }) =>
    [count(p.worktrees, 'worktree'), count(p.branches, 'branch', 'branches'), count(p.beacons, 'beacon'), ...(p.explicit ? [`${p.explicit} given`] : [])].join(
      ', ',
    ),
  ownWork: (committed: number, uncommitted: number) => `${committed} committed + ${uncommitted} uncommitted file${committed + uncommitted === 1 ? '' : 's'}`,
  steer: (peer: string) => `steer: you must steer away from ${peer} (it has right of way)`,
  hold: (peer: string) => `hold: you have right of way; ${peer} has been advised to steer away`,
  steerPair: (steer: string, hold: string) => `${steer} steers, ${hold} holds`,
  whatToDo: 'what to do: coordinate with them, pick other files, or rebase onto their work after it lands',
  beaconAge: (age: string, machine: string | undefined) => `published ${age} ago${machine ? ` from ${machine}` : ''}`,
  beaconStale: (age: string) => `stale: not refreshed for ${age}, its work may be gone; this advisory warns and does not block (beacons.refreshHours)`,
  beaconBranchGone: (branch: string) =>
    `its beacon counts pushed commits, but the remote has no branch ${branch} (deleted or merged since): its work may be gone; this advisory warns and does not block`,
  /** Why the holding agent has right of way (engine HoldReason): the first fact both machines see differently. */
  holdReason: {
    'committed-work': 'why: it has more commits pushed to the remote',
    'proven-work': 'why: it has more committed work (commits travel with its push or beacon; uncommitted work counts for none)',
    'started-earlier': 'why: equal work, and its line of work started earlier (its first commit is older)',
    'name-order': 'why: equal work and age, so the names decide (the same order on every machine)',
  } as const,
  theirWork: 'their commits',
  theirIntent: 'declared intent',
  theirNote: 'note',
  overlap: (path: string, you: string, them: string) => `${path}  you ${you}  them ${them}`,
  wholeFile: 'whole file',
  unknown: (id: string, reason: string) => `unknown: ${id}: ${reason}`,
  moreUnknown: (n: number) => `unknown: … ${n} more pair${n === 1 ? '' : 's'} with a channel not checked (see --json)`,
  clearSummary: (n: number) => `clear: ${n} peer${n === 1 ? '' : 's'}`,
  allClear: 'all clear: no traffic near your work',
  noTraffic: 'no traffic: no other worktree, peer branch or beacon to compare with',
  blocked: (hook: string) => `${hook} blocked by airspace-hooks. Bypass: ${bypass(hook)}`,
  blockedScan: `blocked: this agent must steer. Bypass: ${bypass(null)}`,
  evidence: (text: string) => `evidence: ${text}`,
  predictedRA: 'prediction: risk at the resolution level, but the two states do not conflict yet — a warning, not a block',
  /** The same when git did not merge the two states (no states to merge, or the channel was off). */
  predictedRAUnmerged: 'prediction: risk at the resolution level, and git did not merge the two states — a warning, not a block',
  escalated: (rate: number) => `closing fast (+${rate.toFixed(2)} risk/h): escalated early`,
  fetchAge: (age: string) => `traffic as of ${age} ago`,
  neverFetched: 'traffic never fetched: run `airspace-hooks check --fetch` (branches and beacons; every pre-push fetches too) or `git fetch` (branches only)',
  /** The user's own `git fetch` is newer than the tool's: branch tips are as of theirs, beacons as of ours (or never). */
  userFetchAge: (age: string, ours: string | null) =>
    ours !== null
      ? `traffic as of ${ours} ago, branch tips as of your \`git fetch\` ${age} ago`
      : `branches as of your \`git fetch\` ${age} ago; beacons never fetched: run \`airspace-hooks check --fetch\``,
  fetchFailed: (reason: string) => `unknown: fetch failed (${reason}); using the last fetched state`,
  graphStale: (age: string, changed: number) => `import graph ${age} old${changed > 0 ? `, ${changed} files changed since` : ''}`,
  /** Never names the command the user just ran: what builds the graph is `graph build` (or the background build). */
  graphNone:
    'import graph not built yet: the dependency channel is unknown until `airspace-hooks graph build` (or the background build a run starts) reads the imports',
  skipped: (what: string) => `skipped: ${what}`,
  inboxHeader: 'messages from other agents:',
  channelsLine: (channels: string) => `channels ${channels}`,
  pairMatrix: 'risk matrix',
  advisoriesHeader: 'advisories',
} as const;

export function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h}h`;
  return `${Math.round(h / 24)}d`;
}

// --- hook: the hook fast path (src/cli/hook-entry.ts, src/app/hook.ts) ---

export const hookMessages = {
  /**
   * A push of several refs blocked for some of them: git refuses the whole push when pre-push
   * exits non-zero, so the refs that were fine did not go either. `refspecs` push exactly those.
   */
  heldBack: (names: readonly string[], remote: string | null, refspecs: readonly string[]) =>
    `airspace-hooks: git refuses the whole push, so ${names.join(', ')} ${names.length === 1 ? 'was' : 'were'} not pushed either` +
    (remote !== null ? `; to push ${names.length === 1 ? 'it' : 'them'} alone: git push ${remote} ${refspecs.join(' ')}` : ''),
  usage: (detail: string) => `airspace-hooks hook: ${detail} (expected: hook pre-commit | hook pre-push <remote> <url>)`,
  internal: (detail: string) => `internal error: ${detail}`,
  failedOpen: (hook: string, detail: string) => `airspace-hooks: ${hook} check skipped (${detail}); letting it through`,
  failedClosed: (hook: string, detail: string) => `airspace-hooks: ${hook} check failed (${detail}); blocking because --strict is set. Bypass: ${bypass(hook)}`,
  fetchFailedClosed: (reason: string) =>
    `airspace-hooks: could not fetch the traffic (${reason}); blocking because pre-push.failClosed is set. Bypass: ${bypass('pre-push')}`,
  nothingToCheck: 'airspace-hooks: nothing to check (no branch is pushed: only deletions or tags, or a branch git rejected itself, such as a non-fast-forward)',
  cutOpen: (hook: string, detail: string) => `airspace-hooks: ${hook} ${detail}; letting it through`,
  cutClosed: (hook: string, detail: string) => `airspace-hooks: ${hook} ${detail}; blocking because failClosed is set. Bypass: ${bypass(hook)}`,
} as const;

// --- resident: the resident process (src/resident/, src/app/resident.ts): resident status|stop and doctor's line ---

export const residentMessages = {
  running: (pid: number, version: string, uptime: string, socket: string, served: number, shellServed: number) =>
    `resident process ${pid} (${version}), up ${uptime}, ${count(served, 'question')} answered${shellServed > 0 ? `, ${count(shellServed, 'commit')} answered by the shell` : ''}, socket ${socket}`,
  otherBuild: (pid: number, version: string) =>
    `resident process ${pid} runs another build (${version}); it exits within seconds, the next hook starts the current one`,
  stale: (pid: number) => `resident process ${pid} is gone (its files remain; the next hook ignores them and starts a new one)`,
  busy: (pid: number) =>
    `resident process ${pid} is running but did not answer in time (busy with another question or a re-score); hooks meanwhile run one-shot`,
  absent: 'no resident process: the next hook or `check` starts one',
  disabled: 'resident process off (CI, AIRSPACE_RESIDENT=off, or resident.enabled: false in the config): every hook runs one-shot',
  stopped: 'resident process stopped',
  notRunning: 'no resident process was running',
} as const;

// --- report: the text report beyond the verdict (src/report/render-text.ts) ---

/**
 * Wording of the text report (src/report/render-text.ts) that is not a check verdict: how a pair
 * of two other agents is named, what the range notation means.
 */
const HOLD_REMOTE_SEES = {
  'this-push': 'it sees it on its next fetch once this push lands',
  beacon: 'your beacon is on the remote: it sees it on its next fetch; push or run `airspace-hooks beacon publish` again after new changes',
  'not-yet': 'it sees it once you push or run `airspace-hooks beacon publish`',
} as const;

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
  /**
   * The peer works on another machine: it learns of us only through the remote, and only if it runs
   * our hooks. `shared` (ScannedReport.ownWorkShared): what already shows it our work.
   */
  holdRemote: (peer: string, shared?: 'this-push' | 'beacon') =>
    `hold: you have right of way; ${peer} is advised to steer away if it runs airspace-hooks, once it sees your work (${HOLD_REMOTE_SEES[shared ?? 'not-yet']})`,
} as const;

// --- run: progress lines and the stage log of a run (src/run/) ---

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
  /** `apart`: pairs of `scan` not built because their paths cannot meet (src/traffic/every-pair.ts). */
  trafficFound: (peers: number, pairs: number, apart = 0) =>
    `${peers} peer${peers === 1 ? '' : 's'}, ${pairs} pair${pairs === 1 ? '' : 's'} compared${apart > 0 ? ` (${apart} more proven apart by path)` : ''}`,
  graphNotReady: 'dependency channel: import graph not built yet',
  graphStale: (changed: number) => `dependency channel: import graph ${changed} file${changed === 1 ? '' : 's'} behind`,
  noTimeLeft: 'no time left in the budget',
  announceNotSettled:
    'this push was announced to peers and not settled (no time left in the budget): for up to a minute, a peer with the right of way over it may steer from it',
  pushedAtOnce: (peer: string) =>
    `${peer} announced a conflicting push at the same moment as this one: nobody can tell who was first, so this push steers (push again once the two of you have agreed; the next look ranks you as usual)`,
  beaconsNotFetched: (why: string) => `branches fetched, beacons not (${why}): judged on the branches and the last fetched beacons`,
  beaconsRefused: (n: number, maxBytes: number) => `${n} beacon ref${n === 1 ? '' : 's'} refused: beacon.json larger than ${maxBytes} bytes, not fetched`,
  /** The beacon listing could not add the areas of the work's import-graph neighbours (docs/decisions/beacon-areas.md). */
  dependencyAreasCut: (listed: number, of: number) =>
    `dependency areas: the nearest ${count(listed, 'area')} of ${of} coupled to this work through its imports listed; a peer on another machine in the others is seen once it pushes`,
  /** The dependency areas held more beacons than a run reads (src/git/fetch-beacons.ts, `nearby`): the farthest were not fetched. */
  dependencyBeaconsNotFetched: (refs: number, areas: number, bound: number) =>
    `dependency areas: ${count(refs, 'beacon ref')} in ${count(areas, 'area')} not fetched (a run fetches ${bound} beacons: its own areas' all, then the nearest areas' newest); a peer on another machine among them is seen once it pushes`,
  dependencyAreasFailed: (why: string) =>
    `dependency areas not read (their listing failed: ${why}); the own areas were: a peer in another area coupled to this work is seen once it pushes`,
  /** The own areas alone filled the read bound (src/git/fetch-beacons.ts): the dependency areas were not listed. */
  dependencyAreasOverBound: (ownRefs: number, bound: number) =>
    `dependency areas not read (the own areas' ${count(ownRefs, 'beacon ref')} fill the ${bound} a run fetches); a peer on another machine in another area coupled to this work is seen once it pushes`,
  dependencyAreasNotRead:
    'dependency areas not read (no import graph yet): a peer on another machine, in another area, coupled to this work through its imports is seen only once it pushes',
  /** pre-push of `git push --dry-run` (src/cli/push-invocation.ts): nothing is sent, so nothing is announced. */
  dryRunPush: 'dry run (git push --dry-run): judged as a push, nothing published; peers see this work once it is pushed or published',
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
} as const;
