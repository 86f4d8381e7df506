import picomatch from 'picomatch';
import type { Beacon } from '../beacon/beacon-schema.js';
import { fetchedBeaconRef } from '../beacon/agent-ref.js';
import { readBeacons } from '../beacon/read-beacons.js';
import type { AirspaceConfig, HookName } from '../config/defaults.js';
import { DEFAULTS, pairKey, type Link, type ScanResult } from '../engine/index.js';
import { firstParent, hasCommit } from '../git/commit-time.js';
import { fetchTraffic, type FetchResult } from '../git/fetch-traffic.js';
import { mergeBase } from '../git/merge-base.js';
import type { RepoInfo } from '../git/resolve-repo.js';
import { mergeTreeChannel, type MergeChannelResult } from '../git/merge-tree-channel.js';
import { beaconSkippedLine } from '../messages/beacon.js';
import { runMessages } from '../messages/run.js';
import type { AirspaceReport } from '../report/check-report.js';
import { REPORT_SCHEMA } from '../report/check-report.js';
import { appendSamples, readHistory } from '../state/history-store.js';
import { listIntentIn } from '../state/intent-store.js';
import { collectAirspace, type Airspace, type UnknownPeer } from '../traffic/collect-airspace.js';
import { targetOf, type LineOfWork } from '../traffic/line-of-work.js';
import { workingSetAgainst } from '../traffic/working-set-against.js';
import type { AgentFacts } from '../traffic/to-agent.js';
import type { WorkingSet } from '../traffic/working-set.js';
import { foldBeacons } from './beacon-traffic.js';
import { graphForRun } from './graph-for-run.js';
import { agentFacts, agentReports, scannedReport } from './report-facts.js';
import { scorePairs } from './score-pairs.js';
import { exchangeMessages } from './transmit-intent.js';

/**
 * The pipeline behind `check`, `scan` and the hooks, in the order the data flows:
 * config → fetch → traffic discovery and working sets (git) → beacons → import graph → engine →
 * history and messages → report. It returns data; rendering and exit codes are the caller's.
 */
export interface ScanRequest {
  readonly cwd: string;
  readonly config: AirspaceConfig;
  readonly command: 'check' | 'scan';
  readonly hook: HookName | null;
  readonly fetch: boolean;
  /** `NAME=REV` agents instead of discovery. */
  readonly agentSpecs?: readonly string[];
  /** Epoch ms the scan is evaluated at (recency, age, fetch age). */
  readonly now: number;
  /** True when evaluating a past moment: no history is written and no message is sent. */
  readonly replay?: boolean;
  readonly graphRefresh: 'never' | 'auto';
  readonly inheritRepoEnv: boolean;
  /** The repository as the caller already resolved it (saves a git process). */
  readonly repo?: RepoInfo;
  readonly channels?: readonly string[];
  readonly onProgress?: (text: string) => void;
  /** Also draft this agent's beacon (its work against its trunk merge-base) for publishing. */
  readonly withBeacon?: boolean;
  /** Compute radar positions (default true); hooks printing text skip them. */
  readonly embed?: boolean;
  readonly note?: string;
}

export interface ScanOutcome {
  readonly report: AirspaceReport;
  readonly ownBeacon: Beacon | null;
  /** The commit holding this agent's work (uncommitted included): the beacon's parent. */
  readonly ownWork: string | null;
  /** The engine's view of the same scan, for the radar (file coordinates included). */
  readonly scan: ScanResult;
}

export async function scanRepository(request: ScanRequest): Promise<ScanOutcome> {
  const started = performance.now();
  const { config, cwd } = request;
  const progress = request.onProgress ?? (() => undefined);
  const channels = request.channels ?? config.channels;
  const ignore = picomatch([...config.ignore], { dot: true });

  let fetched: FetchResult | null = null;
  if (request.fetch) {
    progress(runMessages.fetching(config.remote));
    fetched = await fetchTraffic(cwd, config.remote, { timeoutMs: Math.min(config.hooks['pre-push'].budgetMs, 30_000) });
  }

  progress(runMessages.discovering);
  let airspace = await collectAirspace(cwd, {
    remote: config.remote,
    ...(config.trunk ? { trunk: config.trunk } : {}),
    include: config.peers.include,
    exclude: config.peers.exclude,
    maxAgeDays: config.peers.maxAgeDays,
    ...(request.agentSpecs && request.agentSpecs.length > 0 ? { agents: request.agentSpecs } : {}),
    at: request.now,
    ignore,
    channels,
    inheritRepoEnv: request.inheritRepoEnv,
    ...(request.repo ? { repo: request.repo } : {}),
    pairs: request.command === 'scan' ? 'all' : 'ownship',
  });
  const unknown: UnknownPeer[] = [...airspace.unknown];
  // `scan --agent …` compares exactly the named agents; `check` is always about this worktree.
  const namedOnly = request.command === 'scan' && (request.agentSpecs?.length ?? 0) > 0;
  const ownship = namedOnly ? null : airspace.ownship;
  if (namedOnly && airspace.ownship) {
    const own = airspace.ownship.id;
    airspace = { ...airspace, ownship: null, pairs: airspace.pairs.filter((p) => p.a !== own && p.b !== own) };
  }

  const [beaconRead, graph, history, ownIntent, peerIntents] = await Promise.all([
    readBeacons(cwd, { now: request.now, ttlMs: config.beacons.ttlMs, maxBytes: config.beacons.maxBytes, ...(ownship ? { selfId: ownship.id } : {}) }),
    graphForRun(airspace, { channels, refresh: request.graphRefresh, budgetMs: config.graph.budgetMs, now: request.now, progress }),
    readHistory(airspace.commonDir),
    ownship ? listIntentIn(airspace.gitDir) : Promise.resolve([] as string[]),
    localIntents(airspace.traffic),
  ]);
  const skipped = beaconRead.skipped.map((s) => beaconSkippedLine(s.ref, s.reason, s.detail));

  const folded = await foldBeacons({
    beacons: request.agentSpecs?.length ? [] : beaconRead.beacons,
    pairs: airspace.pairs,
    ownshipId: ownship?.id ?? null,
    ownshipWorkingSet: (base) => ownshipWorkingSet(airspace, ignore, base),
    hasCommit: (sha) => hasCommit(airspace.toplevel, sha),
    ...(ownship && channels.includes('merge') ? { mergeWith: (beacon: Beacon) => mergeWithBeacon(airspace.toplevel, targetOf(ownship), beacon) } : {}),
  });
  unknown.push(...folded.unknown);

  const facts = agentFacts([...(ownship ? [ownship] : []), ...airspace.traffic], ownship ? new Map([[ownship.id, ownIntent], ...peerIntents]) : peerIntents, beaconRead.beacons);

  progress(runMessages.scoring(folded.pairs.length));
  const scored = scorePairs({ pairs: folded.pairs, facts, graph: graph.graph, model: config.model, channels, now: request.now, history, embed: request.embed ?? true });

  let inbox: AirspaceReport['inbox'] = [];
  if (!request.replay) {
    await appendSamples(airspace.commonDir, scored.links.map((l) => ({ pairKey: pairKey(l.a, l.b), at: request.now, risk: l.risk })));
    if (ownship && request.command === 'check') {
      inbox = await exchangeMessages({ gitDir: airspace.gitDir, ownship, traffic: airspace.traffic, links: scored.links, facts, now: request.now });
    }
  }

  const agents = agentReports(airspace, folded.beaconOnly, beaconRead.beacons, facts, request.now);
  const weights = { ...DEFAULTS.weights, ...((config.model.weights as Record<string, number> | undefined) ?? {}) };
  const scanned = scannedReport(airspace, folded.beaconOnly.length + folded.merged, fetched, graph, channels, weights, skipped, request, started);
  const ownBeacon = request.withBeacon && ownship ? await draftBeacon(airspace, ignore, ownship, facts.get(ownship.id), request) : null;
  const report: AirspaceReport = {
    schema: REPORT_SCHEMA,
    command: request.command,
    hook: request.hook,
    agents,
    links: scored.links,
    advisories: scored.links.filter((l: Link) => l.level !== 'clear'),
    unknown: unknown.map((u) => ({ id: u.id, reason: u.with && u.with !== ownship?.id ? `${u.reason} (with ${u.with})` : u.reason })),
    positions: scored.positions,
    scanned,
    verdict: null,
    inbox,
  };
  const counts = { agents: agents.length, pairs: report.links.length, clear: 0, TA: 0, RA: 0 };
  for (const link of report.links) counts[link.level]++;
  const scan: ScanResult = { advisories: report.advisories, links: report.links, positions: scored.positions, fileCoordinates: scored.fileCoordinates, counts };
  return { report, ownBeacon, ownWork: ownship ? targetOf(ownship) : null, scan };
}

async function draftBeacon(airspace: Airspace, ignore: (path: string) => boolean, ownship: LineOfWork, facts: AgentFacts | undefined, request: ScanRequest): Promise<Beacon | null> {
  const workingSet = await ownshipWorkingSet(airspace, ignore, null);
  if (workingSet.base === null) return null;
  return {
    schema: 1,
    agent: ownship.id,
    branch: ownship.branch ?? null,
    head: ownship.tip,
    base: workingSet.base,
    workingSet,
    intent: [...(facts?.intent ?? [])],
    committedWork: ownship.facts.committedWork,
    startedAt: ownship.facts.startedAt ?? null,
    updatedAt: request.now,
    ...(request.note ? { note: request.note } : {}),
  };
}

/** Sibling worktrees' declared intent, read from their git dirs: on one machine no beacon is needed. */
async function localIntents(traffic: readonly LineOfWork[]): Promise<Map<string, string[]>> {
  const entries = await Promise.all(
    traffic.flatMap((line) => (line.kind === 'worktree' && line.gitDir ? [line] : [])).map(async (line): Promise<[string, string[]]> => [line.id, await listIntentIn(line.gitDir!)]),
  );
  return new Map(entries.filter(([, intent]) => intent.length > 0));
}

async function ownshipWorkingSet(airspace: Airspace, ignore: (path: string) => boolean, base: string | null): Promise<WorkingSet> {
  const ownship = airspace.ownship!;
  let at = base;
  if (at === null && airspace.scanned.trunk) {
    const found = await mergeBase(airspace.toplevel, airspace.scanned.trunk, ownship.tip);
    at = found.base;
  }
  if (at === null) return { base: null, files: [] };
  return workingSetAgainst(airspace.toplevel, at, ownship, ignore);
}

/** The beacon commit's parent is the peer's published work (see publishBeacon's `parent`). */
async function mergeWithBeacon(cwd: string, own: string, beacon: Beacon): Promise<MergeChannelResult | undefined> {
  const work = await firstParent(cwd, fetchedBeaconRef(beacon.agent));
  return work === null ? undefined : mergeTreeChannel(cwd, own, work);
}
