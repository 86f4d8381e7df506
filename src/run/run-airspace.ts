import { compileGlobs } from '../config/compile-globs.js';
import type { AirspaceConfig } from '../config/defaults.js';
import type { Beacon } from '../beacon/beacon-schema.js';
import { AirspaceError } from '../errors.js';
import { DEFAULT_MAX_NEARBY_REFS } from '../git/fetch-beacons.js';
import type { FetchResult } from '../git/fetch-traffic.js';
import { isBranchName, isRemoteName } from '../git/ref-names.js';
import type { RepoInfo } from '../git/resolve-repo.js';
import { withRunScope } from '../git/run-scope.js';
import { hookMessages, runMessages } from '../messages/hooks-and-check.js';
import { sanitizeText } from '../report/sanitize-text.js';
import type { OwnshipAs } from '../traffic/discover-traffic.js';
import { assembleReport, type RunJudgement } from './assemble-report.js';
import { beaconPrefixes, fetchRemoteTraffic, type BeaconListing } from './collect-traffic.js';
import { gatherInputs } from './gather-inputs.js';
import { publishOwnBeacon, settledBeacon } from './publish-own-beacon.js';
import { recheckAfterAnnounce } from './recheck-after-announce.js';
import { withdrawAfterRun } from './withdraw-own-beacons.js';
import { isOverBudget, startBudget, type RunBudget, type StageRecord } from './run-budget.js';
import { pairsToScore } from './pairs-to-score.js';
import { planRun, type PushedRef, type RunPlan, type RunRequest } from './run-request.js';
import { scoreAirspace } from './score-airspace.js';
import { prepareScoring } from './score-pairs.js';
import { liveSensing, type Sensing } from './sensing.js';

export type { RunJudgement } from './assemble-report.js';

/**
 * The one pipeline behind the hooks, `check`, `scan`, `radar` and `beacon`. It reads top to bottom
 * as its stages, each a file of its own with a typed input and output (docs/decisions/layout.md):
 *   open the repository and plan the run → fetch (once per run) → for each judged line of work:
 *   1 collect traffic (src/run/collect-traffic.ts) → 2 gather beacons, graph, history and intents
 *   (gather-inputs.ts) → 2b for `scan`, which pairs left unbuilt to build after all
 *   (pairs-to-score.ts) → 3 compute the git channels (compute-git-channels.ts) → 4 score and record
 *   (score-airspace.ts) → 5 assemble the report and verdict (assemble-report.ts) → 6 publish this
 *   agent's beacon (publish-own-beacon.ts) → 7 after a fetch, withdraw this clone's beacons of lines
 *   of work that no longer exist (withdraw-own-beacons.ts).
 * One run, one budget, one AbortSignal: every git process it starts is killed when the budget runs
 * out or the caller aborts (docs/decisions/budgets.md); the budget's stage log says what ran. It
 * returns data; rendering and exit codes are the caller's.
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
  /**
   * How stages 1–3 read git (default liveSensing): the resident process passes one that may answer
   * them from its last run of the same inputs (src/run/sensing.ts).
   */
  readonly sensing?: Sensing;
  /**
   * The moment the run judges at (default: now). With `dryRun` the resident renders a pre-commit's
   * answer ahead of the hook that will ask for it (src/app/ready-answer.ts): the same state, judged
   * at the ends of the time it will be served in.
   */
  readonly at?: number;
  /** Writes no risk history and no inbox message: a rendering, not a run the airspace remembers. */
  readonly dryRun?: boolean;
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
  /** Nothing to judge (no branch update pushed: deletions, tags, or refs git rejected before the hook; or the hook is off). */
  readonly idle: boolean;
  /** This clone's beacons of dead lines of work withdrawn by this run (stage 7). */
  readonly withdrawnBeacons: number;
}

const ZERO = /^0+$/;

export async function runAirspace(request: RunRequest, options: RunOptions = {}): Promise<RunOutcome> {
  const { repo, config } = await (options.sensing ?? liveSensing).openRepository(request.cwd, {
    inheritRepoEnv: request.kind === 'pre-commit' || request.kind === 'pre-push',
  });
  const planned = planRun(request, config);
  const budgeted = options.budgetMs !== undefined && planned.budgetMs !== null ? { ...planned, budgetMs: options.budgetMs } : planned;
  const plan = options.dryRun === true ? { ...budgeted, writeState: false } : budgeted;
  // A rendering reads only: a plan that would fetch or publish a beacon (hooks.pre-commit.publishBeacon) is not one.
  if (options.dryRun === true && (plan.fetch || plan.draftBeacon !== false)) throw new DryRunRefused();
  const idle = (stages: readonly StageRecord[] = []): RunOutcome => ({
    plan,
    judgements: [],
    stages,
    notes: [],
    failedClosed: false,
    idle: true,
    withdrawnBeacons: 0,
  });
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
        // Beacons are read by the areas of the judged work (docs/decisions/beacon-areas.md).
        const listing = beaconPrefixes({ cwd: request.cwd, repo, remote, config, plan, targets });
        const fetched = plan.fetch
          ? await fetchRemoteTraffic(budget, request.cwd, repo.commonDir, remote, config.beacons.maxBytes, progress, 'fetch', listing)
          : null;
        if (!plan.fetch) budget.note('fetch', 'skipped', plan.hook === 'pre-commit' ? 'pre-commit never fetches' : undefined);
        const notes: string[] = [];
        let failedClosed = false;
        if (fetched && !fetched.ok && plan.failClosed) {
          notes.push(hookMessages.fetchFailedClosed(fetched.reason ?? 'unknown'));
          failedClosed = true;
        }
        // The branches are known: judge on them, and say which part is missing.
        if (fetched?.ok && fetched.beaconsFailed !== undefined) notes.push(runMessages.beaconsNotFetched(sanitizeText(fetched.beaconsFailed)));
        const judgements: RunJudgement[] = [];
        for (const target of targets) {
          judgements.push(
            await judge({
              request,
              plan,
              config,
              repo,
              remote,
              fetched,
              target,
              budget,
              progress,
              env: options.env,
              listing,
              sensing: options.sensing ?? liveSensing,
              ...(options.at !== undefined ? { at: options.at } : {}),
            }),
          );
        }
        // 6: publish; a pre-push whose first look lets every ref go announces its push (`pushing`,
        // src/run/recheck-after-announce.ts). One that already steers (or fails closed) will not land:
        // an announce would make peers with the right of way steer from a push that never comes.
        const announcing = plan.hook === 'pre-push' && !failedClosed && judgements.every((j) => j.report.verdict?.block !== true);
        const announced = new Map<string, Beacon>();
        for (const judged of judgements) {
          if (!judged.ownBeacon) continue;
          const beacon: Beacon = announcing ? { ...judged.ownBeacon, pushing: true } : judged.ownBeacon;
          if (announcing) announced.set(beacon.agent, beacon);
          const published = await publishOwnBeacon(budget, request.cwd, remote, config, { ...judged, ownBeacon: beacon }, repo.commonDir);
          if (published) notes.push(published);
        }
        // 6b: announced; look again before deciding (src/run/recheck-after-announce.ts).
        if (plan.hook === 'pre-push' && fetched?.ok && judgements.some((j) => j.ownBeacon)) {
          const second = await recheckAfterAnnounce({
            cwd: request.cwd,
            budget,
            judgements,
            fetchAgain: () => fetchRemoteTraffic(budget, request.cwd, repo.commonDir, remote, config.beacons.maxBytes, progress, 'recheck', listing),
            judgeAgain: (i, again) =>
              judge({
                request,
                plan,
                config,
                repo,
                remote,
                fetched: again,
                target: targets[i]!,
                budget,
                progress,
                env: options.env,
                listing,
                sensing: liveSensing,
              }),
          });
          judgements.splice(0, judgements.length, ...second.judgements);
          for (const peer of second.newcomers) notes.push(runMessages.pushedAtOnce(sanitizeText(peer)));
        }
        // 6c: a push the hook refuses is no longer under way: its peers rank it as usual from now on.
        // One blocked ref (or a fail-closed run) makes the hook exit non-zero (src/app/hook.ts), and git
        // then sends none of the pushed refs: every announce of the run is settled, not only the blocked ones.
        if (announced.size > 0 && (failedClosed || judgements.some((j) => j.report.verdict?.block === true))) {
          const unsettled = new Set<string>();
          for (const judged of judgements) {
            const announce = judged.ownBeacon ? announced.get(judged.ownBeacon.agent) : undefined;
            if (!judged.ownBeacon || !announce) continue;
            const settle = { ...judged, ownBeacon: settledBeacon(judged.ownBeacon, announce, Date.now()) };
            const line = await publishOwnBeacon(budget, request.cwd, remote, config, settle, repo.commonDir, runMessages.announceNotSettled);
            if (line) unsettled.add(line);
          }
          notes.push(...unsettled);
        }
        // 7: a run that touched the network refreshes this clone's airspace: beacons of dead lines of work go.
        // Withdrawing needs the remote's current beacons: not after a failed beacon part.
        const withdrawnBeacons =
          plan.fetch && plan.remoteWrites && fetched?.ok && fetched.beaconsFailed === undefined
            ? await withdrawAfterRun(budget, request.cwd, remote, judgements, repo.commonDir)
            : 0;
        if (withdrawnBeacons > 0) notes.push(runMessages.beaconsWithdrawn(withdrawnBeacons));
        if (request.kind === 'pre-push' && request.dryRun === true) notes.push(runMessages.dryRunPush);
        return { plan, judgements, stages: budget.log, notes, failedClosed, idle: false, withdrawnBeacons };
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

/** `dryRun` asked of a run that would touch the network: nothing ran. */
export class DryRunRefused extends Error {
  constructor() {
    super('a dry run neither fetches nor publishes');
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
  /** Which beacon refs the fetch listed (the report says when the dependency areas were not among them). */
  readonly listing: BeaconListing;
  readonly sensing: Sensing;
  /** RunOptions.at */
  readonly at?: number;
}

/** One line of work through stages 1–5, in order. */
async function judge(input: JudgeInput): Promise<RunJudgement> {
  const started = performance.now();
  const { request, plan, config, budget, progress, env, sensing } = input;
  const now = request.kind === 'scan' && request.at !== undefined ? request.at : (input.at ?? Date.now());
  const ignore = compileGlobs(config.ignore);
  // `scan` compares every pair of n agents: it lists only the pairs with contact.
  const contactOnly = plan.pairs === 'all';

  const traffic = await sensing.collectTraffic({ ...input, now, ignore });
  const gathered = await gatherInputs({
    traffic,
    plan,
    config,
    budget,
    progress,
    now,
    ignore,
    env,
    readPeerBeacons: sensing.readPeerBeacons,
    graphForRun: sensing.graphForRun,
  });
  // 2b: `scan` builds only the pairs that can matter (src/run/pairs-to-score.ts).
  const toScore = pairsToScore({
    pairs: gathered.pairs,
    unpaired: traffic.airspace.unpaired,
    facts: gathered.facts,
    model: config.model,
    channels: plan.channels,
    contactOnly,
  });
  const channelled = await sensing.computeGitChannels({
    pairs: toScore.pairs,
    pairsInScan: toScore.inScan,
    cwd: traffic.airspace.toplevel,
    commonDir: input.repo.commonDir,
    channels: plan.channels,
    ignore,
    budget,
    contactOnly,
    prepare: (pairs) =>
      prepareScoring({
        pairs,
        facts: gathered.facts,
        graph: gathered.graph.graph,
        model: config.model,
        channels: plan.channels,
        now,
        history: gathered.history,
        embed: plan.embed,
        signatureChange: config.symbols.signatureChange,
        contactOnly,
        provenClear: toScore.provenClear,
      }),
  });
  const scored = await scoreAirspace({
    ...channelled,
    plan,
    airspace: traffic.airspace,
    ownship: traffic.ownship,
    facts: gathered.facts,
    budget,
    progress,
    now,
  });
  // What the beacon listing could not cover is said with what else was skipped.
  // None of them was listed when the own areas filled the read bound: that line says so instead.
  const cut = input.fetched && !input.fetched.nearbyNotListed ? input.listing.dependencyAreasCut() : undefined;
  const listingNotes = [
    ...(input.fetched && input.listing.dependencyAreas() === 'no-graph' ? [runMessages.dependencyAreasNotRead] : []),
    ...(cut ? [runMessages.dependencyAreasCut(cut.listed, cut.of)] : []),
    ...(input.fetched?.nearbyLeftOut
      ? [runMessages.dependencyBeaconsNotFetched(input.fetched.nearbyLeftOut.refs, input.fetched.nearbyLeftOut.areas, DEFAULT_MAX_NEARBY_REFS)]
      : []),
    ...(input.fetched?.nearbyFailed !== undefined ? [runMessages.dependencyAreasFailed(sanitizeText(input.fetched.nearbyFailed))] : []),
    ...(input.fetched?.nearbyNotListed ? [runMessages.dependencyAreasOverBound(input.fetched.nearbyNotListed.ownRefs, DEFAULT_MAX_NEARBY_REFS)] : []),
  ];
  return assembleReport({
    request,
    plan,
    config,
    traffic,
    gathered,
    channelNotes: [...channelled.skipped, ...listingNotes],
    scored,
    fetched: input.fetched,
    budget,
    now,
    started,
  });
}
