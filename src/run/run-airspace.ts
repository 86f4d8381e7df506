import picomatch from 'picomatch';
import type { Beacon } from '../beacon/beacon-schema.js';
import { FETCHED_BEACON_REFS, readBeacons } from '../beacon/read-beacons.js';
import type { AirspaceConfig } from '../config/defaults.js';
import { AirspaceError, isAirspaceError } from '../errors.js';
import { isBranchName, isRemoteName } from '../git/ref-names.js';
import { publishBeacon } from '../beacon/publish-beacon.js';
import { graphBuildMessages } from '../messages/graph-build.js';
import { hookMessages } from '../messages/hook.js';
import { sanitizeText } from '../report/sanitize-text.js';
import type { LoadedGraph } from '../graph/types.js';
import { DEFAULTS, pairKey, type Link, type ScanResult } from '../engine/index.js';
import { hasCommit } from '../git/commit-time.js';
import { fetchTraffic, type FetchResult } from '../git/fetch-traffic.js';
import { withRunScope } from '../git/run-scope.js';
import { mergeBase } from '../git/merge-base.js';
import type { RepoInfo } from '../git/resolve-repo.js';
import { hasCommitKnown, knownCommits } from './known-commits.js';
import { beaconNotPublishedLine, beaconSkippedLine } from '../messages/beacon.js';
import { runMessages } from '../messages/run.js';
import { scaleMessages } from '../messages/scale.js';
import type { AirspaceReport } from '../report/check-report.js';
import { REPORT_SCHEMA } from '../report/check-report.js';
import { appendSamples, readHistory } from '../state/history-store.js';
import { listIntentIn } from '../state/intent-store.js';
import { collectAirspace, type Airspace, type UnknownPeer } from '../traffic/collect-airspace.js';
import type { OwnshipAs } from '../traffic/discover-traffic.js';
import { targetOf, type LineOfWork } from '../traffic/line-of-work.js';
import { workingSetAgainst } from '../traffic/working-set-against.js';
import type { AgentFacts } from '../traffic/to-agent.js';
import type { WorkingSet } from '../traffic/working-set.js';
import { beaconWorkChannels, foldBeacons, symbolShare } from './beacon-traffic.js';
import { graphForRun } from './graph-for-run.js';
import { agentFacts, agentReports, scannedReport } from './report-facts.js';
import { contactSymbols, SYMBOLS_ON_EVERY_PAIR_UP_TO } from './contact-symbols.js';
import { prepareScoring } from './score-pairs.js';
import { isOverBudget, startBudget, type RunBudget, type StageRecord, type StageState } from './run-budget.js';
import { planRun, type PushedRef, type RunPlan, type RunRequest } from './run-request.js';
import { openRepository } from './open-repository.js';
import { verdictFor } from './verdict.js';
import { exchangeMessages } from './transmit-intent.js';

/**
 * The one pipeline behind the hooks, `check`, `scan`, `radar` and `beacon`, in the order the data
 * flows: config → fetch → traffic and working sets (git) → beacons → import graph → engine →
 * history and messages → report → verdict → (pre-push) beacon publish. One run, one budget, one
 * AbortSignal: every git process it starts is killed when the budget runs out or the caller aborts
 * (docs/decisions/budgets.md). It returns data; rendering and exit codes are the caller's.
 */
export interface RunOptions {
  /** Ends the run (kills its git processes): Ctrl-C, an MCP request's cancellation. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (text: string) => void;
  /** The performance.now() value the budget counts from (a hook passes 0: its process start). */
  readonly startedAt?: number;
  /** Replaces the configured budget (AIRSPACE_HOOKS_BUDGET_MS: a slow or loaded machine, CI). */
  readonly budgetMs?: number;
  /** Where AIRSPACE_GRAPH_BACKGROUND is read and a background graph build starts from (default process.env). */
  readonly env?: NodeJS.ProcessEnv;
}

/** One judged line of work: a pre-push judges every pushed ref, everything else judges one. */
export interface RunJudgement {
  readonly report: AirspaceReport;
  /** The engine's view of the same scan, for the radar (file coordinates included). */
  readonly scan: ScanResult;
  readonly ownBeacon: Beacon | null;
  /** The commit holding this agent's work (uncommitted included): the beacon's parent. */
  readonly ownWork: string | null;
}

export interface RunOutcome {
  readonly plan: RunPlan;
  readonly judgements: readonly RunJudgement[];
  /** What ran, what was cut and why: the hook's one line. */
  readonly stages: readonly StageRecord[];
  /** Lines to show besides the report (a beacon not published, a fetch failure under failClosed). */
  readonly notes: readonly string[];
  /** True when the run must fail (block) for a reason other than an RA: failClosed with an unknown state. */
  readonly failedClosed: boolean;
  /** Nothing to judge (only deletions or tags pushed, or the hook is off). */
  readonly idle: boolean;
}

const ZERO = /^0+$/;

export async function runAirspace(request: RunRequest, options: RunOptions = {}): Promise<RunOutcome> {
  const { repo, config } = await openRepository(request.cwd, { inheritRepoEnv: request.kind === 'pre-commit' || request.kind === 'pre-push' });
  const planned = planRun(request, config);
  const plan = options.budgetMs !== undefined && planned.budgetMs !== null ? { ...planned, budgetMs: options.budgetMs } : planned;
  const idle = (stages: StageRecord[] = []): RunOutcome => ({ plan, judgements: [], stages, notes: [], failedClosed: false, idle: true });
  if (plan.mode === 'off') return idle();
  const targets = request.kind === 'pre-push' ? pushTargets(request.pushed, repo) : [null];
  if (targets.length === 0) return idle();

  const budget = startBudget({
    budgetMs: plan.budgetMs,
    ...(options.startedAt !== undefined ? { startedAt: options.startedAt } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  try {
    // One run scope: the budget's signal and deadline check, the pinned environment built once, one
    // object reader (src/git/run-scope.ts).
    return await withRunScope(
      budget.signal,
      async () => {
        const progress = options.onProgress ?? (() => undefined);
        const remote = request.kind === 'pre-push' && request.remote !== null && isRemoteName(request.remote) ? request.remote : config.remote;
        const fetched = plan.fetch ? await fetchStage(budget, request.cwd, repo.commonDir, remote, progress) : null;
        if (!plan.fetch) budget.note('fetch', 'skipped', plan.hook === 'pre-commit' ? 'pre-commit never fetches' : undefined);
        const notes: string[] = [];
        let failedClosed = false;
        if (fetched && !fetched.ok && plan.failClosed) {
          notes.push(hookMessages.fetchFailedClosed(fetched.reason ?? 'unknown'));
          failedClosed = true;
        }
        const judgements: RunJudgement[] = [];
        for (const target of targets) {
          judgements.push(await judge({ request, plan, config, repo, remote, fetched, target, budget, progress, env: options.env }));
        }
        for (const judged of judgements) {
          if (!judged.ownBeacon) continue;
          const published = await publishStage(budget, request.cwd, remote, config, judged);
          if (published) notes.push(published);
        }
        return { plan, judgements, stages: budget.log, notes, failedClosed, idle: false };
      },
      budget.checkDeadline,
    );
  } catch (error) {
    if (isOverBudget(error) || budget.signal.aborted) throw new RunCutError(plan, budget.log, error);
    throw error;
  } finally {
    budget.dispose();
  }
}

/** The run ended before it could judge: the budget ran out or the caller aborted. */
export class RunCutError extends AirspaceError {
  readonly plan: RunPlan;
  readonly stages: readonly StageRecord[];
  constructor(plan: RunPlan, stages: readonly StageRecord[], cause: unknown) {
    super('environment', 'over-budget', runMessages.cut(plan.budgetMs, stages, cause instanceof Error ? cause.message : String(cause)), {
      budgetMs: plan.budgetMs,
    });
    this.plan = plan;
    this.stages = stages;
  }
}

/** The pushed refs worth judging: branch updates and creations (not deletions, not tags). */
function pushTargets(pushed: readonly PushedRef[], repo: RepoInfo): OwnshipAs[] {
  const targets: OwnshipAs[] = [];
  for (const ref of pushed) {
    if (ZERO.test(ref.localSha) || !ref.remoteRef.startsWith('refs/heads/') || !/^[0-9a-f]{40,64}$/.test(ref.localSha)) continue;
    const branch = ref.remoteRef.slice('refs/heads/'.length);
    if (!isBranchName(branch)) continue;
    const here = repo.branch !== null && ref.localRef === `refs/heads/${repo.branch}`;
    targets.push({ id: branch, branch, tip: ref.localSha, ...(here ? { gitDir: repo.gitDir } : {}) });
  }
  return targets;
}

async function fetchStage(budget: RunBudget, cwd: string, commonDir: string, remote: string, progress: (text: string) => void): Promise<FetchResult> {
  progress(runMessages.fetching(remote));
  // The fetch may take at most half of what is left: a hung transport must leave time to judge.
  const timeoutMs = Math.max(200, Math.min(30_000, Math.floor(budget.remaining() / 2)));
  return budget.stage(
    'fetch',
    // The common dir is known from openRepository: the fetch stamp needs no rev-parse of its own.
    () => fetchTraffic(cwd, remote, { timeoutMs, commonDir }),
    (r) => (r.ok ? undefined : { state: 'failed', ...(r.reason ? { detail: r.reason } : {}) }),
  );
}

interface JudgeInput {
  readonly request: RunRequest;
  readonly plan: RunPlan;
  readonly config: AirspaceConfig;
  readonly repo: RepoInfo;
  readonly remote: string;
  readonly fetched: FetchResult | null;
  readonly target: OwnshipAs | null;
  readonly budget: RunBudget;
  readonly progress: (text: string) => void;
  readonly env: NodeJS.ProcessEnv | undefined;
}

async function judge(input: JudgeInput): Promise<RunJudgement> {
  const started = performance.now();
  const { request, plan, config, budget, progress } = input;
  const cwd = request.cwd;
  const now = request.kind === 'scan' && request.at !== undefined ? request.at : Date.now();
  const agentSpecs = request.kind === 'scan' ? (request.agents ?? []) : [];
  const channels = plan.channels;
  const ignore = picomatch([...config.ignore], { dot: true });
  // `scan` compares every pair of n agents: list and check only the pairs with contact (src/run/contact-symbols.ts).
  const contactOnly = plan.pairs === 'all';

  progress(runMessages.discovering);
  let airspace = await budget.stage(
    'traffic',
    () =>
      collectAirspace(cwd, {
        remote: input.remote,
        ...(config.trunk ? { trunk: config.trunk } : {}),
        include: config.peers.include,
        exclude: config.peers.exclude,
        maxAgeDays: config.peers.maxAgeDays,
        ...(agentSpecs.length > 0 ? { agents: agentSpecs } : {}),
        at: now,
        ignore,
        channels: contactOnly ? channels.filter((channel) => channel !== 'symbol') : channels,
        inheritRepoEnv: plan.inheritRepoEnv,
        repo: input.repo,
        // The beacons are read below: their refs come with the branches' for-each-ref.
        beaconRefs: FETCHED_BEACON_REFS,
        pairs: plan.pairs,
        ...(input.target ? { ownshipAs: input.target } : {}),
      }),
    (a) => ({ detail: runMessages.trafficFound(a.traffic.length, a.pairs.length) }),
  );
  const unknown: UnknownPeer[] = [...airspace.unknown];
  // `scan --agent …` compares exactly the named agents; `check` is always about this worktree.
  const namedOnly = agentSpecs.length > 0;
  const ownship = namedOnly ? null : airspace.ownship;
  if (namedOnly && airspace.ownship) {
    const own = airspace.ownship.id;
    airspace = { ...airspace, ownship: null, pairs: airspace.pairs.filter((p) => p.a !== own && p.b !== own) };
  }

  const ownSets = ownship ? ownshipWorkingSets(airspace, ignore) : () => Promise.resolve<WorkingSet>({ base: null, files: [] });
  const [beaconRead, graph, history, ownIntent, peerIntents] = await Promise.all([
    budget.stage('beacons', () =>
      readBeacons(cwd, {
        now,
        ttlMs: config.beacons.ttlMs,
        maxBytes: config.beacons.maxBytes,
        ...(ownship ? { selfId: ownship.id } : {}),
        ...(airspace.beaconListing ? { listing: airspace.beaconListing } : {}),
      }),
    ),
    budget.stage(
      'graph',
      () =>
        graphForRun(airspace, {
          channels,
          refresh: plan.graphRefresh,
          budgetMs: config.graph.budgetMs,
          now,
          progress,
          ...(input.env ? { env: input.env } : {}),
        }),
      graphStageState,
    ),
    readHistory(airspace.commonDir),
    ownship?.gitDir ? listIntentIn(ownship.gitDir) : Promise.resolve([] as string[]),
    localIntents(airspace.traffic),
  ]);
  const skipped = beaconRead.skipped.map((s) => beaconSkippedLine(s.ref, s.reason, s.detail));

  const folded = await foldBeacons({
    beacons: namedOnly ? [] : beaconRead.beacons,
    pairs: airspace.pairs,
    ownshipId: ownship?.id ?? null,
    ownshipWorkingSet: ownSets,
    hasCommit: hasCommitKnown(knownCommits(ownship, airspace.pairs), (sha) => hasCommit(airspace.toplevel, sha)),
    ...(ownship && (channels.includes('merge') || channels.includes('symbol'))
      ? {
          workChannels: (beacon: Beacon, branchTip?: string) =>
            beaconWorkChannels(airspace.toplevel, targetOf(ownship), beacon, beaconRead.works.get(beacon.agent) ?? null, branchTip, {
              merge: channels.includes('merge'),
              symbol: channels.includes('symbol') ? { ownId: ownship.id, ignore, signal: symbolShare(budget) } : null,
            }),
        }
      : {}),
    branchTips: new Map(airspace.traffic.filter((line) => line.kind === 'branch').map((line) => [line.id, line.tip])),
  });
  unknown.push(...folded.unknown);

  const facts = agentFacts(
    [...(ownship ? [ownship] : []), ...airspace.traffic],
    ownship ? new Map([[ownship.id, ownIntent], ...peerIntents]) : peerIntents,
    beaconRead.beacons,
  );

  progress(runMessages.scoring(folded.pairs.length));
  const symbolsSkipped: string[] = [];
  const scored = await budget.stage('scoring', async () => {
    const prepared = prepareScoring({
      pairs: folded.pairs,
      facts,
      graph: graph.graph,
      model: config.model,
      channels,
      now,
      history,
      embed: plan.embed,
      signatureChange: config.symbols.signatureChange,
      contactOnly,
    });
    if (!contactOnly || !channels.includes('symbol')) return prepared.score();
    const lines = new Map([...(airspace.ownship ? [airspace.ownship] : []), ...airspace.traffic].map((line) => [line.id, line]));
    const checked = await contactSymbols({
      cwd: airspace.toplevel,
      pairs: folded.pairs,
      lines,
      // When pairs without contact cannot be proven clear, they are all listed: check them all. A
      // scan of a few dozen agents checks every pair too: a symbol collision is between files that
      // share no path, which is exactly what the contact rule cannot see.
      contact: prepared.rule === 'all' || folded.pairs.length <= SYMBOLS_ON_EVERY_PAIR_UP_TO ? () => true : (k) => prepared.contact(k),
      concurrency: 4,
    });
    if (checked.skipped > 0) symbolsSkipped.push(scaleMessages.symbolsSkipped(checked.skipped));
    return prepared.score(checked.pairs);
  });

  let inbox: AirspaceReport['inbox'] = [];
  if (plan.writeState) {
    inbox = await budget.stage('state', async () => {
      await appendSamples(
        airspace.commonDir,
        scored.links.map((l) => ({ pairKey: pairKey(l.a, l.b), at: now, risk: l.risk })),
      );
      if (!ownship?.gitDir || plan.command !== 'check') return [];
      return exchangeMessages({ gitDir: ownship.gitDir, ownship, traffic: airspace.traffic, links: scored.links, facts, now });
    });
  }

  const agents = agentReports(airspace, folded.beaconOnly, beaconRead.beacons, facts, now);
  const weights = { ...DEFAULTS.weights, ...config.model.weights };
  const scanned = scannedReport(
    airspace,
    folded.beaconOnly.length + folded.merged,
    input.fetched,
    graph,
    channels,
    weights,
    [...skipped, ...symbolsSkipped],
    { now },
    started,
  );
  const ownBeacon =
    plan.draftBeacon && ownship ? await draftBeacon(ownSets, ownship, facts.get(ownship.id), now, request.kind === 'beacon' ? request.note : undefined) : null;
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
    unknown: unknown.map((u) => ({ id: u.id, reason: u.with && u.with !== ownship?.id ? `${u.reason} (with ${u.with})` : u.reason })),
    positions: scored.positions,
    scanned: { ...scanned, stages: budget.log.map((record) => ({ ...record })) },
    verdict: null,
    inbox,
  };
  const report: AirspaceReport = { ...draft, verdict: plan.command === 'check' ? verdictFor(draft, plan.mode) : null };
  const counts = { agents: agents.length, pairs: report.pairs.compared, clear: scored.clearWithoutContact, TA: 0, RA: 0 };
  for (const link of report.links) counts[link.level]++;
  const scan: ScanResult = { advisories, links: report.links, positions: scored.positions, fileCoordinates: scored.fileCoordinates, counts };
  return { report, scan, ownBeacon, ownWork: ownship ? targetOf(ownship) : null };
}

function graphStageState(graph: LoadedGraph): { state?: StageState; detail?: string } | undefined {
  const missing = graph.source === 'none' && graph.warnings.some((w) => w.code === 'cache-missing');
  // The background build's own line ("building, 1,240 of 3,589 files") says more than "not built yet".
  const building = graph.background ? graphBuildMessages.status(graph.background, !missing) : undefined;
  if (missing) return { state: 'skipped', detail: building ?? runMessages.graphNotReady };
  return graph.stale ? { state: 'partial', detail: building ?? runMessages.graphStale(graph.changedSinceBuild) } : undefined;
}

/** Publishes this agent's beacon with what is left of the budget; a failure is a line, never a crash. */
async function publishStage(budget: RunBudget, cwd: string, remote: string, config: AirspaceConfig, judged: RunJudgement): Promise<string | null> {
  const timeoutMs = Math.min(budget.remaining(), 10_000);
  if (timeoutMs < 100) {
    budget.note('beacon publish', 'skipped', runMessages.noTimeLeft);
    return null;
  }
  try {
    const published = await budget.stage('beacon publish', () =>
      publishBeacon(cwd, remote, judged.ownBeacon!, {
        timeoutMs,
        limits: { maxBytes: config.beacons.maxBytes },
        ...(judged.ownWork ? { parent: judged.ownWork } : {}),
      }),
    );
    return published.ok ? null : beaconNotPublishedLine(published.reason ?? 'failed', published.detail ? sanitizeText(published.detail) : undefined);
  } catch (error) {
    // The verdict is already made; a cut publish must not take it away.
    if (isOverBudget(error) || isAirspaceError(error)) return beaconNotPublishedLine('timeout', undefined);
    throw error;
  }
}

async function draftBeacon(
  ownSets: (base: string | null) => Promise<WorkingSet>,
  ownship: LineOfWork,
  facts: AgentFacts | undefined,
  now: number,
  note: string | undefined,
): Promise<Beacon | null> {
  const workingSet = await ownSets(null);
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
    updatedAt: now,
    ...(note ? { note } : {}),
  };
}

/** Sibling worktrees' declared intent, read from their git dirs: on one machine no beacon is needed. */
async function localIntents(traffic: readonly LineOfWork[]): Promise<Map<string, string[]>> {
  const entries = await Promise.all(
    traffic
      .flatMap((line) => (line.kind === 'worktree' && line.gitDir ? [line] : []))
      .map(async (line): Promise<[string, string[]]> => [line.id, await listIntentIn(line.gitDir!)]),
  );
  return new Map(entries.filter(([, intent]) => intent.length > 0));
}

/**
 * The ownship's working set against a base (null: its trunk merge-base), once per base and run: a
 * beacon-only peer's base is usually the trunk's tip, the same base the own beacon is drafted
 * against, and each computation costs a `diff-tree` and a `log` (pre-push ran both twice).
 */
function ownshipWorkingSets(airspace: Airspace, ignore: (path: string) => boolean): (base: string | null) => Promise<WorkingSet> {
  const ownship = airspace.ownship!;
  const sets = new Map<string, Promise<WorkingSet>>();
  let trunkBase: Promise<string | null> | undefined;
  const resolveBase = (base: string | null): Promise<string | null> => {
    if (base !== null || !airspace.scanned.trunk) return Promise.resolve(base);
    trunkBase ??= mergeBase(airspace.toplevel, airspace.scanned.trunk, ownship.tip).then((found) => found.base);
    return trunkBase;
  };
  return async (base) => {
    const at = await resolveBase(base);
    if (at === null) return { base: null, files: [] };
    if (!sets.has(at)) sets.set(at, workingSetAgainst(airspace.toplevel, at, ownship, ignore));
    return sets.get(at)!;
  };
}
