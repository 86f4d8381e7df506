import { readBeacons, type OwnBeaconRef, type ReadBeaconsResult } from '../beacon/read-beacons.js';
import type { AirspaceConfig } from '../config/defaults.js';
import type { RiskSample } from '../engine/index.js';
import { hasCommit } from '../git/commit-time.js';
import { mergeBase } from '../git/merge-base.js';
import { graphBuildMessages } from '../messages/channels.js';
import { beaconSkippedLine } from '../messages/transponder.js';
import { runMessages } from '../messages/hooks-and-check.js';
import type { LoadedGraph } from '../graph/types.js';
import { cloneIdentity, type CloneIdentity } from '../state/clone-identity.js';
import { readHistory } from '../state/history-store.js';
import { listIntentIn, readIntentIn } from '../state/intent-store.js';
import type { Airspace, PairWorkingSets, UnknownPeer } from '../traffic/collect-airspace.js';
import { targetOf, type LineOfWork } from '../traffic/line-of-work.js';
import type { AgentFacts } from '../traffic/to-agent.js';
import { workingSetAgainst } from '../traffic/working-set-against.js';
import type { WorkingSet } from '../traffic/working-set.js';
import { foldBeacons, type BeaconFoldResult, type FoldedBeacon } from './beacon-traffic.js';
import { graphForRun } from './graph-for-run.js';
import { hasCommitKnown, knownCommits } from './known-commits.js';
import { agentFacts } from './report-facts.js';
import type { RunBudget, StageState } from './run-budget.js';
import type { RunPlan } from './run-request.js';
import type { Traffic } from './collect-traffic.js';

/** Stage 2 of a run (src/run/run-airspace.ts): beacons, the import graph, risk history and intents, beside the traffic. */
export interface GatherInput {
  readonly traffic: Traffic;
  readonly plan: RunPlan;
  readonly config: AirspaceConfig;
  readonly budget: RunBudget;
  readonly progress: (text: string) => void;
  readonly now: number;
  readonly ignore: (path: string) => boolean;
  readonly env: NodeJS.ProcessEnv | undefined;
  /** The git half of this stage (default readPeerBeacons): the seam src/run/sensing.ts names. */
  readonly readPeerBeacons?: (input: PeerBeaconInput) => Promise<PeerBeacons>;
  /** The graph stage (default graphForRun), the same seam. */
  readonly graphForRun?: typeof graphForRun;
}

export interface Gathered {
  /** Every pair to score: the traffic's, with the peers' beacons folded in, and one per beacon-only peer. */
  readonly pairs: PairWorkingSets[];
  /** Every beacon read, with the id of the agent it stands for. */
  readonly beacons: readonly FoldedBeacon[];
  /** Beacons that stand for agents seen nowhere else. */
  readonly beaconOnly: readonly FoldedBeacon[];
  /** Beacons counted in the report: beacon-only agents plus beacons merged into a known agent. */
  readonly beaconCount: number;
  /** One line per beacon ref not read (too large, malformed, expired…). */
  readonly skipped: readonly string[];
  readonly graph: LoadedGraph;
  readonly history: Readonly<Record<string, readonly RiskSample[]>>;
  readonly facts: Map<string, AgentFacts>;
  readonly unknown: readonly UnknownPeer[];
  /** The ownship's working set against a base (null: its trunk merge-base), for its own beacon. */
  readonly ownWorkingSet: (base: string | null) => Promise<WorkingSet>;
  /** This clone's identity: its beacons are published under it. */
  readonly clone: CloneIdentity;
  /** The beacons this clone published, as the last fetch saw them on the remote. */
  readonly ownBeacons: readonly OwnBeaconRef[];
  /** When the ownship's intent paths declared with a time to live expire (its beacon carries it). */
  readonly ownIntentExpiresAt: ReadonlyMap<string, number>;
}

export async function gatherInputs(input: GatherInput): Promise<Gathered> {
  const { plan, config, budget, now, ignore } = input;
  const { airspace, ownship } = input.traffic;
  const channels = plan.channels;
  const ownWorkingSet = ownship ? ownshipWorkingSets(airspace, ownship, ignore) : () => Promise.resolve<WorkingSet>({ base: null, files: [] });
  const clone = await cloneIdentity(airspace.commonDir);
  const read = input.readPeerBeacons ?? readPeerBeacons;
  const loadGraph = input.graphForRun ?? graphForRun;
  const [peers, graph, history, ownIntent, peerIntents] = await Promise.all([
    read({ traffic: input.traffic, plan, config, budget, now, ignore, ownWorkingSet, clone }),
    budget.stage(
      'graph',
      () =>
        loadGraph(airspace, {
          channels,
          refresh: plan.graphRefresh,
          budgetMs: config.graph.budgetMs,
          now,
          progress: input.progress,
          ...(input.env ? { env: input.env } : {}),
        }),
      graphStageState,
    ),
    readHistory(airspace.commonDir),
    ownship?.gitDir ? readIntentIn(ownship.gitDir, now) : Promise.resolve({ paths: [] as string[], expiresAt: new Map<string, number>() }),
    localIntents(airspace.traffic, now),
  ]);
  const { read: beaconRead, folded } = peers;
  const lines = [...(ownship ? [ownship] : []), ...airspace.traffic];
  const facts = agentFacts(lines, ownship ? new Map([[ownship.id, ownIntent.paths], ...peerIntents]) : peerIntents, folded.folded, clone, now);
  return {
    pairs: folded.pairs,
    beacons: folded.folded,
    beaconOnly: folded.beaconOnly,
    beaconCount: folded.beaconOnly.length + folded.merged,
    skipped: beaconRead.skipped.map((s) => beaconSkippedLine(s.ref, s.reason, s.detail)),
    graph,
    history,
    facts,
    unknown: [...input.traffic.unknown, ...folded.unknown],
    ownWorkingSet,
    clone,
    ownBeacons: beaconRead.own,
    ownIntentExpiresAt: ownIntent.expiresAt,
  };
}

/** What stage 2 reads of the peers' beacons through git: the refs read and checked, then folded into the pairs. */
export interface PeerBeaconInput {
  readonly traffic: Traffic;
  readonly plan: RunPlan;
  readonly config: AirspaceConfig;
  readonly budget: RunBudget;
  readonly now: number;
  readonly ignore: (path: string) => boolean;
  readonly ownWorkingSet: (base: string | null) => Promise<WorkingSet>;
  readonly clone: CloneIdentity;
}

export interface PeerBeacons {
  readonly read: ReadBeaconsResult;
  readonly folded: BeaconFoldResult;
}

/**
 * The git half of stage 2: the beacons and the pairs they fold into. The rest of the stage (graph,
 * history, intents, facts) is read fresh by every run, so a resident answering from its last run
 * (src/resident/warm-airspace.ts) replaces only this.
 */
export async function readPeerBeacons(input: PeerBeaconInput): Promise<PeerBeacons> {
  const { plan, config, budget, now, ignore, ownWorkingSet, clone } = input;
  const { airspace, ownship, namedOnly } = input.traffic;
  const cwd = airspace.toplevel;
  const channels = plan.channels;
  const beaconRead = await budget.stage('beacons', () =>
    readBeacons(cwd, {
      now,
      ttlMs: config.beacons.ttlMs,
      maxBytes: config.beacons.maxBytes,
      selfClone: clone.id,
      ...(ownship ? { selfId: ownship.id } : {}),
      // Asked only in a flood: a beacon touching the ownship's files is kept before one that does not.
      ...(ownship ? { relevantPaths: async () => new Set((await ownWorkingSet(null)).files.flatMap((f) => (f.path ? [f.file, f.path] : [f.file]))) } : {}),
      ...(airspace.beaconListing ? { listing: airspace.beaconListing } : {}),
    }),
  );
  const beacons = namedOnly ? [] : beaconRead.beacons;
  const lines = [...(ownship ? [ownship] : []), ...airspace.traffic];
  const folded = await foldBeacons({
    beacons,
    pairs: airspace.pairs,
    ownshipId: ownship?.id ?? null,
    lineIds: new Set(lines.map((line) => line.id)),
    ownshipWorkingSet: ownWorkingSet,
    hasCommit: hasCommitKnown(knownCommits(ownship, airspace.pairs), (sha) => hasCommit(cwd, sha)),
    cwd,
    workOf: (beacon) => beaconRead.works.get(beacon) ?? null,
    ...(ownship && (channels.includes('merge') || channels.includes('symbol')) ? { ownWork: targetOf(ownship) } : {}),
    branchTips: new Map(airspace.traffic.filter((line) => line.kind === 'branch').map((line) => [line.id, line.tip])),
    branchLines: new Map(airspace.traffic.filter((line) => line.kind === 'branch').map((line) => [line.branch ?? line.id, line.id])),
    ...(airspace.remoteBranchNames ? { remoteBranchNames: airspace.remoteBranchNames } : {}),
    ...(plan.pairs === 'all' ? { everyPair: { lines: airspace.traffic, workingSet: lineWorkingSets(airspace, ignore) } } : {}),
  });
  return { read: beaconRead, folded };
}

function graphStageState(graph: LoadedGraph): { state?: StageState; detail?: string } | undefined {
  const missing = graph.source === 'none' && graph.warnings.some((w) => w.code === 'cache-missing');
  // The background build's own line ("building, 1,240 of 3,589 files") says more than "not built yet".
  const building = graph.background ? graphBuildMessages.status(graph.background, !missing) : undefined;
  if (missing) return { state: 'skipped', detail: building ?? runMessages.graphNotReady };
  return graph.stale ? { state: 'partial', detail: building ?? runMessages.graphStale(graph.changedSinceBuild) } : undefined;
}

/** Sibling worktrees' declared intent, read from their git dirs: on one machine no beacon is needed. */
async function localIntents(traffic: readonly LineOfWork[], now: number): Promise<Map<string, string[]>> {
  const entries = await Promise.all(
    traffic
      .flatMap((line) => (line.kind === 'worktree' && line.gitDir ? [line] : []))
      .map(async (line): Promise<[string, string[]]> => [line.id, await listIntentIn(line.gitDir!, now)]),
  );
  return new Map(entries.filter(([, intent]) => intent.length > 0));
}

/**
 * The ownship's working set against a base (null: its trunk merge-base), once per base and run: a
 * beacon-only peer's base is usually the trunk's tip, the same base the own beacon is drafted
 * against, and each computation costs a `diff-tree` and a `log` (pre-push ran both twice).
 */
function ownshipWorkingSets(airspace: Airspace, ownship: LineOfWork, ignore: (path: string) => boolean): (base: string | null) => Promise<WorkingSet> {
  const sets = lineWorkingSets(airspace, ignore);
  return (base) => sets(ownship, base);
}

/** Any line's working set against a base (null: its trunk merge-base), once per (line, base) and run. */
function lineWorkingSets(airspace: Airspace, ignore: (path: string) => boolean): (line: LineOfWork, base: string | null) => Promise<WorkingSet> {
  const sets = new Map<string, Promise<WorkingSet>>();
  const trunkBases = new Map<string, Promise<string | null>>();
  const resolveBase = (line: LineOfWork, base: string | null): Promise<string | null> => {
    const trunk = airspace.scanned.trunk;
    if (base !== null || !trunk) return Promise.resolve(base);
    if (!trunkBases.has(line.tip))
      trunkBases.set(
        line.tip,
        mergeBase(airspace.toplevel, trunk, line.tip).then((found) => found.base),
      );
    return trunkBases.get(line.tip)!;
  };
  return async (line, base) => {
    const at = await resolveBase(line, base);
    if (at === null) return { base: null, files: [] };
    const key = `${line.id}\0${at}`;
    if (!sets.has(key)) sets.set(key, workingSetAgainst(airspace.toplevel, at, line, ignore));
    return sets.get(key)!;
  };
}
