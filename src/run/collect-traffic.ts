import type { AirspaceConfig } from '../config/defaults.js';
import { compileGlobs } from '../config/compile-globs.js';
import { BEACON_REF_PREFIX } from '../beacon/agent-ref.js';
import { areaOf, areasOf, MAX_AREAS, prefixesOf, WIDE_AREA } from '../beacon/beacon-areas.js';
import { readPublishedRefs } from '../beacon/published-refs.js';
import { FETCHED_BEACON_REFS } from '../beacon/read-beacons.js';
import { isAirspaceError } from '../errors.js';
import { DEFAULT_MAX_NEARBY_REFS, type BeaconSelection } from '../git/fetch-beacons.js';
import { fetchTraffic, type FetchResult } from '../git/fetch-traffic.js';
import { touchedPaths } from '../git/list-refs.js';
import type { RepoInfo } from '../git/resolve-repo.js';
import { listIntentIn } from '../state/intent-store.js';
import { runMessages } from '../messages/hooks-and-check.js';
import { collectAirspace, type Airspace, type UnknownPeer } from '../traffic/collect-airspace.js';
import type { OwnshipAs } from '../traffic/discover-traffic.js';
import type { LineOfWork } from '../traffic/line-of-work.js';
import type { RunBudget } from './run-budget.js';
import type { RunPlan, RunRequest } from './run-request.js';
import { dependencyPaths, type DependencyPaths } from './dependency-areas.js';
import { unbuiltStayUnbuilt } from './pairs-to-score.js';

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
  /** This run's fetch (null: none): the remote's branch list is the remote's only after one that worked. */
  readonly fetched?: FetchResult | null;
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
  listing?: BeaconListing,
): Promise<FetchResult> {
  progress(runMessages.fetching(remote));
  // A hung transport must leave time to judge.
  const timeoutMs = Math.max(200, Math.min(30_000, Math.floor(budget.remaining() / 2)));
  return budget.stage(
    stage,
    // The common dir is known from openRepository: the fetch stamp needs no rev-parse of its own.
    // The beacons run beside the branches with a shorter box of their own: a slow one never costs them.
    () =>
      fetchTraffic(cwd, remote, {
        timeoutMs,
        commonDir,
        beaconMaxBytes,
        beaconTimeoutMs: Math.min(timeoutMs, 8_000),
        ...(listing ? { beaconPrefixes: listing.prefixes } : {}),
      }),
    (r) => {
      if (!r.ok) return { state: 'failed', ...(r.reason ? { detail: r.reason } : {}) };
      if (r.beaconsFailed !== undefined) return { state: 'partial', detail: runMessages.beaconsNotFetched(r.beaconsFailed) };
      const notes = [
        ...(r.beaconsRefused ? [runMessages.beaconsRefused(r.beaconsRefused, beaconMaxBytes)] : []),
        ...(listing?.dependencyAreas() === 'no-graph' ? [runMessages.dependencyAreasNotRead] : []),
        ...(listing?.dependencyAreasCut() && !r.nearbyNotListed
          ? [runMessages.dependencyAreasCut(listing.dependencyAreasCut()!.listed, listing.dependencyAreasCut()!.of)]
          : []),
        ...(r.nearbyLeftOut ? [runMessages.dependencyBeaconsNotFetched(r.nearbyLeftOut.refs, r.nearbyLeftOut.areas, DEFAULT_MAX_NEARBY_REFS)] : []),
        ...(r.nearbyFailed !== undefined ? [runMessages.dependencyAreasFailed(r.nearbyFailed)] : []),
        ...(r.nearbyNotListed ? [runMessages.dependencyAreasOverBound(r.nearbyNotListed.ownRefs, DEFAULT_MAX_NEARBY_REFS)] : []),
      ];
      return notes.length > 0 ? { detail: notes.join('; ') } : undefined;
    },
  );
}

export interface BeaconPrefixInput {
  readonly cwd: string;
  readonly repo: RepoInfo;
  readonly remote: string;
  readonly config: AirspaceConfig;
  readonly plan: RunPlan;
  /** The lines of work judged: each pushed ref (pre-push), or null for this worktree. */
  readonly targets: readonly (OwnshipAs | null)[];
}

/** Which beacon refs a run reads, and whether the areas of its import-graph neighbours are among them. */
export interface BeaconListing {
  /** The remote ref prefixes to list and fetch (the dependency areas within the read bound); null: every beacon. */
  readonly prefixes: () => Promise<BeaconSelection | null>;
  /** Once `prefixes` has answered: how the dependency areas were found (undefined before, or when it listed everything). */
  readonly dependencyAreas: () => DependencyPaths['state'] | undefined;
  /** Once `prefixes` has answered: the dependency areas listed and found, when not all of them were listed. */
  readonly dependencyAreasCut: () => { readonly listed: number; readonly of: number } | undefined;
}

/**
 * Which beacon refs this run lists and fetches (docs/decisions/beacon-areas.md): the areas of the
 * judged work — committed since the trunk, uncommitted in this worktree, declared intent —, the
 * areas of the files within the dependency channel's reach of that work on the cached import graph
 * (a peer there can collide through the imports), and the legacy refs while `beacons.legacyRefs`
 * is `read`. Asked once per run while the branches are fetched (the second look asks again and
 * gets the same answer). Null, every beacon: `scan` (every pair), no trunk to measure from, work
 * wider than MAX_AREAS areas (its neighbours are cut to fit, nearest first), or a git failure — a wider read, never a silent miss.
 */
export function beaconPrefixes(input: BeaconPrefixInput): BeaconListing {
  let asked: Promise<BeaconSelection | null> | undefined;
  let dependencyAreas: DependencyPaths['state'] | undefined;
  let cut: { readonly listed: number; readonly of: number } | undefined;
  return {
    prefixes: () => {
      asked ??= ownAreaPrefixes(input, (state, found) => {
        dependencyAreas = state;
        cut = found;
      }).catch((error: unknown) => {
        if (isAirspaceError(error) && error.code !== 'git-cancelled') return null;
        throw error;
      });
      return asked;
    },
    dependencyAreas: () => dependencyAreas,
    dependencyAreasCut: () => cut,
  };
}

async function ownAreaPrefixes(
  input: BeaconPrefixInput,
  found: (state: DependencyPaths['state'], cut?: { readonly listed: number; readonly of: number }) => void,
): Promise<BeaconSelection | null> {
  const { cwd, repo, remote, config } = input;
  if (input.plan.pairs === 'all') return null;
  // The trunk as src/git/resolve-trunk.ts would find it, asked of git only when the usual one is missing.
  const trunks = config.trunk
    ? [config.trunk]
    : [`refs/remotes/${remote}/HEAD`, `refs/remotes/${remote}/main`, `refs/remotes/${remote}/master`, 'main', 'master'];
  const paths = new Set<string>();
  for (const target of input.targets) {
    const here = target === null || target.gitDir !== undefined;
    const tip = target?.tip ?? repo.head;
    if (tip === null) continue;
    // This worktree: its commits and uncommitted work since the trunk in one diff (and its untracked
    // files, its intent); a pushed ref of another worktree: its commits.
    let changed: string[] | null = null;
    let trunk = '';
    for (const candidate of trunks) {
      changed = await touchedPaths(cwd, candidate, here ? null : tip);
      trunk = candidate;
      if (changed !== null) break;
    }
    if (changed === null) return null;
    for (const path of changed) paths.add(path);
    if (here && tip !== repo.head) for (const path of (await touchedPaths(cwd, trunk, tip)) ?? []) paths.add(path);
    if (here) for (const path of await listIntentIn(repo.gitDir)) paths.add(path);
  }
  const ignore = compileGlobs(config.ignore);
  const own = [...paths].filter((path) => !ignore(path));
  const ownAreas = new Set(areasOf(own));
  if (ownAreas.has(WIDE_AREA)) return null;
  // A peer in another area that imports this work, or that it imports, collides through the
  // dependency channel: its area is listed too, the nearest first (the paths come in hop order),
  // up to MAX_AREAS in all. Past it, the nearest instead of everything: a module everything imports
  // puts the whole repository in reach, and listing it all made the busiest push read every beacon
  // on the remote (16 s at 10,000 agents, docs/decisions/beacon-areas.md).
  const neighbours = dependencyPaths(repo.commonDir, own, config, input.plan.channels);
  const nearby = new Set<string>();
  if (neighbours.state === 'read') for (const path of neighbours.paths) if (!ignore(path) && !ownAreas.has(areaOf(path))) nearby.add(areaOf(path));
  const listed = [...nearby].slice(0, Math.max(0, MAX_AREAS - ownAreas.size));
  found(neighbours.state, listed.length < nearby.size ? { listed: listed.length, of: nearby.size } : undefined);
  const prefixes = prefixesOf(ownAreas);
  // The areas this clone's beacons stand in now: its own beacon is seen (refreshed, withdrawn) even
  // after its work moved to other areas.
  const published = Object.values(await readPublishedRefs(repo.commonDir))
    .flat()
    .map((ref) => /^refs\/airspace\/areas\/[0-9a-f]{12}\//.exec(ref)?.[0])
    .filter((prefix): prefix is string => prefix !== undefined);
  const areas = [...new Set([...prefixes, ...published])];
  // Read whole: the own areas (a peer on the same files is always seen); the dependency areas, nearest
  // first, within the read bound (src/git/fetch-beacons.ts, `nearby`).
  const whole = config.beacons.legacyRefs === 'read' ? [...areas, BEACON_REF_PREFIX] : areas;
  return { own: whole, nearby: prefixesOf(listed).filter((prefix) => !whole.includes(prefix)) };
}

export async function collectTraffic(input: TrafficInput): Promise<Traffic> {
  const { request, plan, config, budget } = input;
  const agentSpecs = request.kind === 'scan' ? (request.agents ?? []) : [];
  input.progress(runMessages.discovering);
  const collected = await budget.stage(
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
        // The fewest pairs this scan can have once the ownship's are dropped (`scan --agent`).
        acrossBases: (lines) => unbuiltStayUnbuilt(((lines - 1) * (lines - 2)) / 2, config.model, plan.channels),
        ...(input.target ? { ownshipAs: input.target } : {}),
      }),
    (a) => ({ detail: runMessages.trafficFound(a.traffic.length, a.pairs.length, a.unpaired?.count ?? 0) }),
  );
  // Without a branch fetch of its own that worked, the local copies of the remote's branches may
  // lag its beacons: a branch missing there is not proof that the remote deleted it (beacon-traffic.ts).
  const { remoteBranchNames, ...rest } = collected;
  const airspace: Airspace = input.fetched?.ok === true && remoteBranchNames !== undefined ? { ...rest, remoteBranchNames } : rest;
  const unknown: UnknownPeer[] = [...airspace.unknown];
  // `scan --agent …` compares exactly the named agents; `check` is always about this worktree.
  const namedOnly = agentSpecs.length > 0;
  if (!namedOnly || !airspace.ownship) return { airspace, ownship: namedOnly ? null : airspace.ownship, namedOnly, unknown };
  const own = airspace.ownship.id;
  return { airspace: { ...airspace, ownship: null, pairs: airspace.pairs.filter((p) => p.a !== own && p.b !== own) }, ownship: null, namedOnly, unknown };
}
