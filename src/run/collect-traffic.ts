import type { AirspaceConfig } from '../config/defaults.js';
import { FETCHED_BEACON_REFS } from '../beacon/read-beacons.js';
import { fetchTraffic, type FetchResult } from '../git/fetch-traffic.js';
import type { RepoInfo } from '../git/resolve-repo.js';
import { runMessages } from '../messages/hooks-and-check.js';
import { collectAirspace, type Airspace, type UnknownPeer } from '../traffic/collect-airspace.js';
import type { OwnshipAs } from '../traffic/discover-traffic.js';
import type { LineOfWork } from '../traffic/line-of-work.js';
import type { RunBudget } from './run-budget.js';
import type { RunPlan, RunRequest } from './run-request.js';

/** Stage 1 of a run (src/run/run-airspace.ts): who is out there, and both sides of every pair to compare. */
export interface TrafficInput {
  readonly request: RunRequest;
  readonly plan: RunPlan;
  readonly config: AirspaceConfig;
  readonly repo: RepoInfo;
  readonly remote: string;
  /** The pushed commit judged as the ownship (pre-push), or null: this worktree. */
  readonly target: OwnshipAs | null;
  readonly budget: RunBudget;
  readonly progress: (text: string) => void;
  readonly now: number;
  readonly ignore: (path: string) => boolean;
}

export interface Traffic {
  readonly airspace: Airspace;
  /** The line of work judged; null for `scan --agent …`, which compares exactly the named agents. */
  readonly ownship: LineOfWork | null;
  /** `scan --agent …`: no beacons, no ownship. */
  readonly namedOnly: boolean;
  readonly unknown: UnknownPeer[];
}

/**
 * The remote's traffic, fetched with at most half of what is left of the budget: once per run, and
 * a pre-push's second look after announcing (`recheck`, src/run/recheck-after-announce.ts).
 */
export async function fetchRemoteTraffic(
  budget: RunBudget,
  cwd: string,
  commonDir: string,
  remote: string,
  beaconMaxBytes: number,
  progress: (text: string) => void,
  stage: 'fetch' | 'recheck' = 'fetch',
): Promise<FetchResult> {
  progress(runMessages.fetching(remote));
  // A hung transport must leave time to judge.
  const timeoutMs = Math.max(200, Math.min(30_000, Math.floor(budget.remaining() / 2)));
  return budget.stage(
    stage,
    // The common dir is known from openRepository: the fetch stamp needs no rev-parse of its own.
    // The beacons run beside the branches with a shorter box of their own: a slow one never costs them.
    () => fetchTraffic(cwd, remote, { timeoutMs, commonDir, beaconMaxBytes, beaconTimeoutMs: Math.min(timeoutMs, 8_000) }),
    (r) => {
      if (!r.ok) return { state: 'failed', ...(r.reason ? { detail: r.reason } : {}) };
      if (r.beaconsFailed !== undefined) return { state: 'partial', detail: runMessages.beaconsNotFetched(r.beaconsFailed) };
      return r.beaconsRefused ? { detail: runMessages.beaconsRefused(r.beaconsRefused, beaconMaxBytes) } : undefined;
    },
  );
}

export async function collectTraffic(input: TrafficInput): Promise<Traffic> {
  const { request, plan, config, budget } = input;
  const agentSpecs = request.kind === 'scan' ? (request.agents ?? []) : [];
  input.progress(runMessages.discovering);
  const airspace = await budget.stage(
    'traffic',
    () =>
      collectAirspace(request.cwd, {
        remote: input.remote,
        ...(config.trunk ? { trunk: config.trunk } : {}),
        include: config.peers.include,
        exclude: config.peers.exclude,
        maxAgeDays: config.peers.maxAgeDays,
        ...(agentSpecs.length > 0 ? { agents: agentSpecs } : {}),
        at: input.now,
        ignore: input.ignore,
        inheritRepoEnv: plan.inheritRepoEnv,
        repo: input.repo,
        // The beacons are read in the next stage: their refs come with the branches' for-each-ref.
        beaconRefs: FETCHED_BEACON_REFS,
        pairs: plan.pairs,
        ...(input.target ? { ownshipAs: input.target } : {}),
      }),
    (a) => ({ detail: runMessages.trafficFound(a.traffic.length, a.pairs.length) }),
  );
  const unknown: UnknownPeer[] = [...airspace.unknown];
  // `scan --agent …` compares exactly the named agents; `check` is always about this worktree.
  const namedOnly = agentSpecs.length > 0;
  if (!namedOnly || !airspace.ownship) return { airspace, ownship: namedOnly ? null : airspace.ownship, namedOnly, unknown };
  const own = airspace.ownship.id;
  return { airspace: { ...airspace, ownship: null, pairs: airspace.pairs.filter((p) => p.a !== own && p.b !== own) }, ownship: null, namedOnly, unknown };
}
