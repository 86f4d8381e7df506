import type { Beacon } from '../beacon/beacon-schema.js';
import type { FetchResult } from '../git/fetch-traffic.js';
import type { LoadedGraph } from '../graph/types.js';
import type { AgentFactsReport, ScannedReport } from '../report/check-report.js';
import type { Airspace } from '../traffic/collect-airspace.js';
import type { LineOfWork } from '../traffic/line-of-work.js';
import type { AgentFacts } from '../traffic/to-agent.js';

/**
 * The facts the pipeline gathers about each agent and about the scan itself, in the shapes the
 * engine (right-of-way facts, intent) and the report (per-agent facts, what was scanned) take.
 */

/**
 * Right-of-way facts and intent per agent. The facts come only from git: a line of work's pushed
 * commits, which both machines see alike. A beacon's `committedWork`/`startedAt` are claims anyone
 * with push access can write; they are checked against the beacon's own commits when it is read
 * (src/beacon/check-beacon-claims.ts) and never ranked by. A peer seen only through its beacon has
 * pushed nothing, and ranks itself with exactly that on its own machine: no commits, no start.
 * A beacon adds intent. See docs/decisions/beacons.md, "What a beacon can and cannot prove".
 */
export function agentFacts(lines: readonly LineOfWork[], intents: ReadonlyMap<string, string[]>, beacons: readonly Beacon[]): Map<string, AgentFacts> {
  const facts = new Map<string, AgentFacts>();
  for (const line of lines) {
    facts.set(line.id, { committedWork: line.facts.committedWork, ...(line.facts.startedAt !== undefined ? { startedAt: line.facts.startedAt } : {}) });
  }
  for (const [id, intent] of intents) facts.set(id, { ...facts.get(id), intent });
  for (const beacon of beacons) {
    const known = facts.get(beacon.agent);
    facts.set(beacon.agent, {
      committedWork: known?.committedWork ?? 0,
      ...(known?.startedAt !== undefined ? { startedAt: known.startedAt } : {}),
      intent: beacon.intent,
    });
  }
  return facts;
}

export function agentReports(
  airspace: Airspace,
  beaconOnly: readonly Beacon[],
  beacons: readonly Beacon[],
  facts: ReadonlyMap<string, AgentFacts>,
  now: number,
): AgentFactsReport[] {
  const notes = new Map(beacons.map((b) => [b.agent, b]));
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
      ...(beacon ? { beaconAgeMs: Math.max(0, now - beacon.updatedAt) } : {}),
      ...(l.protection ? { protection: l.protection } : {}),
    };
  };
  return [
    ...(airspace.ownship ? [line(airspace.ownship, 'ownship')] : []),
    ...airspace.traffic.map((l) => line(l, l.kind)),
    ...beaconOnly.map(
      (b): AgentFactsReport => ({
        id: b.agent,
        kind: 'beacon',
        branch: b.branch,
        tip: b.head,
        committedFiles: b.workingSet.files.filter((f) => f.origin !== 'uncommitted').length,
        uncommittedFiles: b.workingSet.files.filter((f) => f.origin === 'uncommitted').length,
        committedWork: facts.get(b.agent)?.committedWork ?? 0,
        startedAt: facts.get(b.agent)?.startedAt ?? null,
        subjects: [],
        intent: b.intent,
        ...(b.note ? { note: b.note } : {}),
        beaconAgeMs: Math.max(0, now - b.updatedAt),
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
