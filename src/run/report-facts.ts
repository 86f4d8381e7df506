import type { FetchResult } from '../git/fetch-traffic.js';
import type { LoadedGraph } from '../graph/types.js';
import type { AgentFactsReport, ScannedReport } from '../report/check-report.js';
import type { Airspace } from '../traffic/collect-airspace.js';
import type { LineOfWork } from '../traffic/line-of-work.js';
import { liveIntent, type Beacon } from '../beacon/beacon-schema.js';
import type { AgentFacts } from '../traffic/to-agent.js';
import type { FoldedBeacon } from './beacon-traffic.js';
import type { CloneIdentity } from '../state/clone-identity.js';

/**
 * The facts the pipeline gathers about each agent and about the scan itself, in the shapes the
 * engine (right-of-way facts, intent) and the report (per-agent facts, what was scanned) take.
 */

/**
 * Right-of-way facts and intent per agent, from what both machines can verify with git
 * (docs/decisions/agent-identity.md):
 * - pushed work and start: the commits of a line's branch on the remote (`facts`); a beacon's own
 *   claims of them are never ranked by (anyone can write them);
 * - proven work: every commit on the line since the trunk (`localFacts`) — for a line seen through
 *   its beacon, its `provenWork` claim, checked against the commits its ref carries when it was
 *   read (src/beacon/check-beacon-claims.ts: a claim above them is refused); the publisher claims
 *   exactly its `localFacts`, so both machines rank it alike;
 * - the rank key for the last tie-break: the line's name where peers see it under that name (its
 *   branch is pushed), else `<name>@<clone id>` — the name its beacon carries on every machine.
 * A beacon adds intent: the paths that have not expired at `now`.
 */
export function agentFacts(
  lines: readonly LineOfWork[],
  intents: ReadonlyMap<string, string[]>,
  beacons: readonly FoldedBeacon[],
  clone: CloneIdentity,
  now: number,
): Map<string, AgentFacts> {
  const facts = new Map<string, AgentFacts>();
  for (const line of lines) {
    facts.set(line.id, {
      committedWork: line.facts.committedWork,
      provenWork: line.localFacts.committedWork,
      ...(line.facts.startedAt !== undefined ? { startedAt: line.facts.startedAt } : {}),
      rankKey: line.kind === 'worktree' && !line.published ? `${line.id}@${clone.id}` : line.kind === 'branch' ? (line.branch ?? line.id) : line.id,
    });
  }
  for (const [id, intent] of intents) facts.set(id, { ...facts.get(id), intent });
  for (const { id, beacon, merged } of beacons) {
    const known = facts.get(id);
    facts.set(id, {
      committedWork: known?.committedWork ?? 0,
      provenWork: Math.max(known?.provenWork ?? 0, beacon.provenWork ?? 0),
      ...(known?.startedAt !== undefined ? { startedAt: known.startedAt } : {}),
      rankKey: merged ? beacon.agent : beacon.clone ? `${beacon.agent}@${beacon.clone.id}` : beacon.agent,
      intent: liveIntent(beacon, now),
    });
  }
  return facts;
}

/**
 * How long an announced push (a beacon with `pushing`) counts as under way: a pre-push decides
 * within its budget (15 s by default, src/config/defaults.ts) and the branch lands right after, so
 * four default budgets leave room for a slow transfer and for clocks a few seconds apart. Later, an
 * announce whose branch never landed was a push that steered: it is ranked as usual.
 */
export const PUSH_IN_FLIGHT_MS = 60_000;

/**
 * How far ahead of our clock an announce may be dated and still count as under way: clocks a few
 * seconds apart. The reader accepts beacons up to DEFAULT_FUTURE_SKEW_MS (10 min) ahead
 * (src/beacon/beacon-limits.ts); an announce dated that far would make every holder steer for ~11 min.
 */
export const PUSH_CLOCK_AHEAD_MS = 5_000;

/** Whether `beacon` announces a push published within the window, landed or not: its publisher has not settled it. */
export function announcesPush(beacon: Beacon, now: number): boolean {
  const age = now - beacon.updatedAt;
  return beacon.pushing === true && age <= PUSH_IN_FLIGHT_MS && age >= -PUSH_CLOCK_AHEAD_MS;
}

/** Whether `beacon` announces a push that is still under way: its head is not yet the remote's tip. */
function pushUnderWay(beacon: Beacon, remoteTip: string | null, now: number): boolean {
  return announcesPush(beacon, now) && beacon.head !== remoteTip;
}

export function agentReports(
  airspace: Airspace,
  beaconOnly: readonly FoldedBeacon[],
  beacons: readonly FoldedBeacon[],
  facts: ReadonlyMap<string, AgentFacts>,
  now: number,
  refreshMs: number,
): AgentFactsReport[] {
  const age = (beacon: Beacon) => Math.max(0, now - beacon.updatedAt);
  const aged = (beacon: Beacon) => ({
    beaconAgeMs: age(beacon),
    ...(age(beacon) > refreshMs ? { beaconStale: true } : {}),
    ...(beacon.clone ? { machine: beacon.clone.machine } : {}),
  });
  // A beacon's note and age belong to the line of work it was merged into (a pushed branch), never to a namesake.
  const notes = new Map(beacons.filter((b) => b.merged).map((b) => [b.id, b.beacon]));
  const line = (l: LineOfWork, kind: AgentFactsReport['kind']): AgentFactsReport => {
    const beacon = notes.get(l.id);
    const uncommitted = l.uncommittedPaths?.length ?? 0;
    return {
      id: l.id,
      kind,
      branch: l.branch ?? null,
      tip: l.tip,
      ...(l.worktreePath ? { worktreePath: l.worktreePath } : {}),
      committedFiles: Math.max(0, countFilesOf(airspace, l.id) - uncommitted),
      uncommittedFiles: uncommitted,
      commits: l.commitsSinceTrunk,
      committedWork: l.facts.committedWork,
      startedAt: l.facts.startedAt ?? null,
      subjects: l.subjects,
      intent: facts.get(l.id)?.intent ?? [],
      ...(beacon?.note ? { note: beacon.note } : {}),
      ...(beacon ? { beaconAgeMs: age(beacon) } : {}),
      ...(beacon && l.kind === 'branch' && pushUnderWay(beacon, l.tip, now) ? { pushing: true as const } : {}),
      ...(l.protection ? { protection: l.protection } : {}),
    };
  };
  return [
    ...(airspace.ownship ? [line(airspace.ownship, 'ownship')] : []),
    ...airspace.traffic.map((l) => line(l, l.kind)),
    ...beaconOnly.map(
      ({ id, beacon: b, branchGone }): AgentFactsReport => ({
        id,
        kind: 'beacon',
        branch: b.branch,
        tip: b.head,
        committedFiles: b.workingSet.files.filter((f) => f.origin !== 'uncommitted').length,
        uncommittedFiles: b.workingSet.files.filter((f) => f.origin === 'uncommitted').length,
        committedWork: facts.get(id)?.committedWork ?? 0,
        startedAt: facts.get(id)?.startedAt ?? null,
        subjects: [],
        intent: liveIntent(b, now),
        ...(b.note ? { note: b.note } : {}),
        ...aged(b),
        ...(branchGone ? { branchGone: true } : {}),
        ...(pushUnderWay(b, null, now) ? { pushing: true as const } : {}),
      }),
    ),
  ];
}

/** Files of an agent in its first compared pair (its side's working set). */
function countFilesOf(airspace: Airspace, id: string): number {
  for (const pair of airspace.pairs) {
    if (pair.a === id) return pair.workingSetA.files.length;
    if (pair.b === id) return pair.workingSetB.files.length;
  }
  return 0;
}

export function scannedReport(
  airspace: Airspace,
  beacons: number,
  fetched: FetchResult | null,
  graph: LoadedGraph,
  channels: readonly string[],
  weights: Readonly<Record<string, number>>,
  skipped: string[],
  request: { readonly now: number },
  started: number,
): ScannedReport {
  const s = airspace.scanned;
  const peers = airspace.traffic;
  const lastFetchAt = fetched?.ok ? fetched.at : (s.fetch?.at ?? null);
  return {
    at: request.now,
    ownship: airspace.ownship?.id ?? null,
    includesUncommitted: true,
    peers: {
      worktrees: peers.filter((p) => p.kind === 'worktree').length,
      branches: peers.filter((p) => p.kind === 'branch').length,
      beacons,
      explicit: peers.filter((p) => p.kind === 'revision').length,
    },
    fetch: {
      attempted: fetched !== null,
      ok: fetched ? fetched.ok : null,
      ...(fetched?.reason ? { reason: fetched.reason } : {}),
      lastFetchAt,
      ageMs: lastFetchAt !== null ? Math.max(0, request.now - lastFetchAt) : null,
      remote: s.remote.configured,
      userFetchAgeMs: s.userFetch ? Math.max(0, request.now - s.userFetch.at) : null,
    },
    graph: {
      source: graph.source,
      files: Object.keys(graph.graph.adjacency).length,
      stale: graph.stale,
      builtAt: graph.builtAt ?? null,
      changedSinceBuild: graph.changedSinceBuild,
      warnings: graph.warnings.map((w) => w.message),
    },
    channels,
    weights,
    skipped: [...s.notes, ...skipped],
    durationMs: Math.round(performance.now() - started),
  };
}
