import type { Beacon } from '../beacon/beacon-schema.js';
import { publishedNote } from '../beacon/read-beacons.js';
import type { AirspaceConfig } from '../config/defaults.js';
import { DEFAULTS, type Link, type ScanResult } from '../engine/index.js';
import type { FetchResult } from '../git/fetch-traffic.js';
import { REPORT_SCHEMA, type AirspaceReport } from '../report/check-report.js';
import type { CloneIdentity } from '../state/clone-identity.js';
import type { UnknownPeer } from '../traffic/collect-airspace.js';
import { targetOf, type LineOfWork } from '../traffic/line-of-work.js';
import type { AgentFacts } from '../traffic/to-agent.js';
import type { WorkingSet } from '../traffic/working-set.js';
import type { Traffic } from './collect-traffic.js';
import type { Gathered } from './gather-inputs.js';
import { agentReports, announcesPush, scannedReport } from './report-facts.js';
import type { RunBudget } from './run-budget.js';
import type { RunPlan, RunRequest } from './run-request.js';
import type { Scored } from './score-airspace.js';
import { verdictFor } from './verdict.js';
import type { OwnBeaconsSeen } from './withdraw-own-beacons.js';

/** Stage 5 of a run (src/run/run-airspace.ts): the report, its verdict, the radar's view and this agent's beacon draft. */
export interface AssembleInput {
  readonly request: RunRequest;
  readonly plan: RunPlan;
  readonly config: AirspaceConfig;
  readonly traffic: Traffic;
  readonly gathered: Gathered;
  readonly channelNotes: readonly string[];
  readonly scored: Scored;
  readonly fetched: FetchResult | null;
  readonly budget: RunBudget;
  readonly now: number;
  /** performance.now() when this line of work's judgement began (the report's duration). */
  readonly started: number;
}

/** One judged line of work: a pre-push judges every pushed ref, everything else judges one. */
export interface RunJudgement {
  readonly report: AirspaceReport;
  /** The engine's view of the same scan, for the radar (file coordinates included). */
  readonly scan: ScanResult;
  readonly ownBeacon: Beacon | null;
  /** The commit holding this agent's work (uncommitted included): the beacon's parent. */
  readonly ownWork: string | null;
  /** This clone's published beacons and which of its lines of work are alive (stage 7). */
  readonly ownBeacons: OwnBeaconsSeen;
  /**
   * Peers whose beacon announces a push not settled, landed or not (src/run/report-facts.ts
   * announcesPush): a second look steers from one that was under way in the first
   * (src/run/recheck-after-announce.ts).
   */
  readonly peersAnnouncing: ReadonlySet<string>;
}

export async function assembleReport(input: AssembleInput): Promise<RunJudgement> {
  const { plan, config, gathered, budget, now } = input;
  const { airspace, ownship } = input.traffic;
  const { scored, inbox } = input.scored;
  const agents = agentReports(airspace, gathered.beaconOnly, gathered.beacons, gathered.facts, now, config.beacons.refreshMs);
  const weights = { ...DEFAULTS.weights, ...config.model.weights };
  const scanned = scannedReport(
    airspace,
    gathered.beaconCount,
    input.fetched,
    gathered.graph,
    plan.channels,
    weights,
    [...gathered.skipped, ...input.channelNotes],
    { now },
    input.started,
  );
  const hasWork = ownship !== null && (ownship.commitsSinceTrunk > 0 || (ownship.uncommittedPaths?.length ?? 0) > 0);
  const refresh = plan.draftBeacon === 'refresh' && hasWork && gathered.ownBeacons.some((b) => b.agent === ownship?.id);
  const drafting = (plan.draftBeacon === true || refresh) && ownship !== null;
  // Only `beacon publish` sets or clears the note; every other publish keeps the one on the remote.
  const note = !drafting
    ? undefined
    : input.request.kind === 'beacon'
      ? input.request.note
      : await publishedNote(input.request.cwd, gathered.ownBeacons, ownship.id);
  const ownBeacon =
    drafting && ownship
      ? await draftBeacon(gathered.ownWorkingSet, ownship, gathered.facts.get(ownship.id), gathered.ownIntentExpiresAt, now, note, gathered.clone)
      : null;
  const advisories = scored.links.filter((l: Link) => l.level !== 'clear');
  const draft: AirspaceReport = {
    schema: REPORT_SCHEMA,
    command: plan.command,
    hook: plan.hook,
    agents,
    links: scored.links,
    advisories,
    pairs: {
      compared: scored.links.length + scored.clearWithoutContact,
      listed: scored.links.length,
      clearWithoutContact: scored.clearWithoutContact,
      maxRiskWithoutContact: scored.clearBound,
    },
    unknown: gathered.unknown.map((u) => unknownEntry(u, ownship)),
    positions: scored.positions,
    scanned: { ...scanned, ...ownWorkShared(plan, ownship, gathered), stages: budget.log.map((record) => ({ ...record })) },
    verdict: null,
    inbox,
  };
  const report: AirspaceReport = { ...draft, verdict: plan.command === 'check' ? verdictFor(draft, plan.mode) : null };
  const counts = { agents: agents.length, pairs: report.pairs.compared, clear: scored.clearWithoutContact, TA: 0, RA: 0 };
  for (const link of report.links) counts[link.level]++;
  const scan: ScanResult = { advisories, links: report.links, positions: scored.positions, fileCoordinates: scored.fileCoordinates, counts };
  const live = new Set([...(ownship && hasWork ? [ownship.id] : []), ...airspace.traffic.filter((l) => l.kind === 'worktree').map((l) => l.id)]);
  const ownBeacons: OwnBeaconsSeen = { clone: gathered.clone.id, published: gathered.ownBeacons, live, discarded: ownship && !hasWork ? ownship.id : null };
  const peersAnnouncing = new Set(gathered.beacons.filter((b) => announcesPush(b.beacon, now)).map((b) => b.id));
  return { report, scan, ownBeacon, ownWork: ownship ? targetOf(ownship) : null, ownBeacons, peersAnnouncing };
}

/** Whether a peer behind the remote can see this work already (the holder's line says so). */
function ownWorkShared(plan: RunPlan, ownship: LineOfWork | null, gathered: Gathered): Pick<AirspaceReport['scanned'], 'ownWorkShared'> {
  if (plan.hook === 'pre-push') return { ownWorkShared: 'this-push' };
  if (ownship !== null && gathered.ownBeacons.some((b) => b.agent === ownship.id)) return { ownWorkShared: 'beacon' };
  return {};
}

function unknownEntry(u: UnknownPeer, ownship: LineOfWork | null): AirspaceReport['unknown'][number] {
  return { id: u.id, reason: u.with && u.with !== ownship?.id ? `${u.reason} (with ${u.with})` : u.reason };
}

async function draftBeacon(
  ownSets: (base: string | null) => Promise<WorkingSet>,
  ownship: LineOfWork,
  facts: AgentFacts | undefined,
  intentExpiresAt: ReadonlyMap<string, number>,
  now: number,
  note: string | undefined,
  clone: CloneIdentity,
): Promise<Beacon | null> {
  const workingSet = await ownSets(null);
  if (workingSet.base === null) return null;
  const intent = [...(facts?.intent ?? [])];
  // Without its expiry a peer would read an intent declared for minutes as live for the beacon's whole life.
  const expiring = intent.flatMap((path): [string, number][] => {
    const at = intentExpiresAt.get(path);
    return at === undefined ? [] : [[path, at]];
  });
  return {
    schema: 1,
    agent: ownship.id,
    branch: ownship.branch ?? null,
    head: ownship.tip,
    base: workingSet.base,
    workingSet,
    intent,
    ...(expiring.length > 0 ? { intentExpiresAt: expiring } : {}),
    // The facts peers rank this agent by, as it ranks itself (src/run/report-facts.ts agentFacts).
    committedWork: ownship.facts.committedWork,
    provenWork: ownship.localFacts.committedWork,
    startedAt: ownship.facts.startedAt ?? null,
    updatedAt: now,
    ...(note ? { note } : {}),
    clone: { id: clone.id, machine: clone.machine },
  };
}
