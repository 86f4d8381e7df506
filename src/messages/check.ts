/** Wording of advisories and verdicts. Every blocking message carries the bypass. */

import { count } from './count.js';

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
};

export function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h}h`;
  return `${Math.round(h / 24)}d`;
}
