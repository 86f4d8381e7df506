/**
 * The git layer's single entry point for the CLI: turn the repository into lines of work and,
 * for each pair to compare, both sides' working sets in the pair's base coordinates.
 *
 *   const scan = await collectAirspace(cwd, { remote: 'origin', include: [], exclude: [],
 *     maxAgeDays: 14, ignore });
 *   for (const pair of scan.pairs)
 *     engine input: toAgent(pair.a, pair.workingSetA, facts of a), toAgent(pair.b, …);
 *     pair.states are the two commits the git channels compare (src/channels/).
 *
 * - `ownship`: this worktree (HEAD + staged, unstaged, untracked-not-ignored work), or null in a
 *   repository with no commits and no files. Pass `inheritRepoEnv: true` from a hook so the index
 *   git is building (GIT_INDEX_FILE, `git commit -a`) is the one read.
 * - `traffic`: other worktrees, remote branches with work not in the trunk (globs, age), or — when
 *   `agents` (`NAME=REV`) is given — exactly those, no discovery.
 * - `pairs`: `'ownship'` (default) compares the ownship with every peer; `'all'` every pair of
 *   ownship + traffic (for `scan`), building only those whose paths can meet and describing the
 *   rest in `unpaired` (every-pair.ts). Working sets are cached per (base, target) within the run.
 * - `unknown`: every peer or pair that could not be compared, with a one-line reason. Nothing is
 *   dropped silently and one bad peer never fails the scan.
 * - `scanned`: what was looked at (committed vs uncommitted per agent, fetch age, notes, timings).
 * Throws only when the repository itself is unusable (not a repo, bare): AirspaceError.
 */
import { isAirspaceError } from '../errors.js';
import { lastFetchAge, lastUserFetch, type LastFetch, type UserFetch } from '../git/fetch-traffic.js';
import { resolveRepo, type RepoInfo } from '../git/resolve-repo.js';
import { gitMessages } from '../messages/command-line.js';
import { discoverTraffic, type OwnshipAs } from './discover-traffic.js';
import { targetOf, type LineOfWork } from './line-of-work.js';
import { encodeAgentId } from '../beacon/agent-ref.js';
import { compareEveryPair, type Unpaired } from './every-pair.js';
import { comparePairs, type ComparedPair, type PairContext } from './pair-working-sets.js';
import type { WorkingSet, WorkingSetFile } from './working-set.js';

export interface CollectOptions {
  readonly remote: string;
  /** Trunk branch or ref; default `<remote>/HEAD`'s target, else `main`, else `master`. */
  readonly trunk?: string;
  /** Globs on remote branch names. */
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  readonly maxAgeDays: number;
  /** `NAME=REV` specs replacing discovery. */
  readonly agents?: readonly string[];
  /** Evaluation time (epoch ms) for the age filter and the fetch age; default now. */
  readonly at?: number;
  /** True: this path is noise (lockfiles, CHANGELOG.md…) and leaves every working set. */
  readonly ignore: (path: string) => boolean;
  readonly inheritRepoEnv?: boolean;
  readonly pairs?: 'ownship' | 'all';
  /**
   * `pairs: 'all'`: whether pairs of lines that left the trunk at different commits may be left
   * unbuilt too (src/traffic/every-pair.ts, AcrossBases), asked with the number of lines: true only
   * when no later stage builds the pairs left unbuilt (src/run/pairs-to-score.ts).
   */
  readonly acrossBases?: (lines: number) => boolean;
  readonly subjectCap?: number;
  /** Git processes in flight at once (default 4). */
  readonly concurrency?: number;
  /**
   * The repository as the caller already resolved it for `cwd` (same inheritRepoEnv): saves the
   * one `rev-parse` this function would otherwise run.
   */
  readonly repo?: RepoInfo;
  /** The fetched beacons' ref prefix, listed along with the branches (Airspace.beaconListing). */
  readonly beaconRefs?: string;
  /** Judge this commit as the ownship instead of the worktree (see OwnshipAs). */
  readonly ownshipAs?: OwnshipAs;
}

export interface PairWorkingSets {
  readonly a: string;
  readonly b: string;
  /** The pair's merge-base: the coordinates of both working sets. */
  readonly base: string;
  readonly workingSetA: WorkingSet;
  readonly workingSetB: WorkingSet;
  /** The two states the channels git computes compare (src/channels/); null: no commit holds one side's work. */
  readonly states: GitStates | null;
}

/** The commits holding each side's work (uncommitted work through a snapshot commit). */
export interface GitStates {
  readonly a: string;
  readonly b: string;
  /** Both working sets are these states' diffs from the pair's base (not a beacon's claim). */
  readonly fromBase: boolean;
  /**
   * When the working sets are not (a beacon's claim): both states' files since the pair's base,
   * read from git (`b` is its whole diff: no file left out by `ignore`) — what the merge channel's
   * path test and the symbol channel's proven sides need (src/run/beacon-traffic.ts).
   */
  readonly filesSinceBase?: { readonly a: readonly WorkingSetFile[]; readonly b: readonly WorkingSetFile[] };
}

export interface UnknownPeer {
  readonly id: string;
  /** The other side when a pair (rather than a peer) failed. */
  readonly with?: string;
  readonly reason: string;
}

export interface ScannedAgent {
  readonly id: string;
  readonly kind: LineOfWork['kind'];
  /** Commits on the line since the trunk (local tip: unpushed ones included). */
  readonly commits: number;
  readonly uncommittedFiles: number;
}

export interface Scanned {
  readonly at: number;
  readonly remote: { readonly name: string; readonly configured: boolean };
  readonly trunk: string | null;
  readonly fetch: LastFetch | null;
  /** The user's own last `git fetch`/`git pull` (FETCH_HEAD), which may be newer than ours. */
  readonly userFetch: UserFetch | null;
  readonly shallow: boolean;
  readonly ownship: ScannedAgent | null;
  readonly peers: readonly ScannedAgent[];
  readonly remoteBranches: { readonly considered: number; readonly active: number };
  readonly notes: readonly string[];
  readonly timings: { readonly discoveryMs: number; readonly pairsMs: number };
}

export interface Airspace {
  readonly toplevel: string;
  readonly commonDir: string;
  /** This worktree's own git dir (its inbox and intent live there). */
  readonly gitDir: string;
  readonly ownship: LineOfWork | null;
  readonly traffic: readonly LineOfWork[];
  readonly pairs: readonly PairWorkingSets[];
  /**
   * `pairs: 'all'`: the pairs not built because their sides provably do not meet (every-pair.ts);
   * src/traffic/unpaired-pairs.ts builds those a later stage needs.
   */
  readonly unpaired?: Unpaired;
  readonly unknown: readonly UnknownPeer[];
  readonly scanned: Scanned;
  /** With CollectOptions.beaconRefs: the fetched beacon refs, listed by discovery's `for-each-ref`. */
  readonly beaconListing?: readonly string[];
  /** Until when (epoch ms) the remote branches' age filter keeps its answer (DiscoveredTraffic.agesOutAt). */
  readonly agesOutAt?: number;
  /** Every branch of the remote by name, when it is configured (DiscoveredTraffic.remoteBranchNames). */
  readonly remoteBranchNames?: ReadonlySet<string>;
}

export async function collectAirspace(cwd: string, options: CollectOptions): Promise<Airspace> {
  const at = options.at ?? Date.now();
  const started = performance.now();
  const repo = options.repo ?? (await resolveRepo(cwd, { inheritRepoEnv: options.inheritRepoEnv }));
  const [found, fetch, userFetch] = await Promise.all([
    discoverTraffic(repo, { ...options, at }),
    lastFetchAge(repo.commonDir, at),
    lastUserFetch(repo.gitDir, repo.commonDir, at),
  ]);
  const discovered = performance.now();
  const notes = [...found.notes];
  if (!found.hasRemote && !options.agents?.length) notes.push(gitMessages.noRemote(options.remote));
  if (found.trunk === null) notes.push(gitMessages.trunkMissing(options.trunk ?? 'main'));
  if (repo.head === null && found.ownship) notes.push(gitMessages.ownshipUnborn);
  if (repo.isShallow) notes.push(gitMessages.shallowClone);

  const unknown: UnknownPeer[] = [...found.unknown];
  const context: PairContext = {
    cwd: repo.toplevel,
    graph: found.graph,
    graphComplete: found.graphComplete,
    ignore: options.ignore,
    concurrency: options.concurrency ?? 4,
  };
  let unpaired: Unpaired | undefined;
  const compare = async (): Promise<ComparedPair[]> => {
    if (options.pairs !== 'all') return comparePairs(pairList(found.ownship, found.traffic), context);
    const lines = lineList(found.ownship, found.traffic);
    const across = found.trunk && options.acrossBases?.(lines.length) ? { trunk: found.trunk.sha } : undefined;
    const every = await compareEveryPair(lines, context, mayGainPaths(found.ownship, found.beaconListing), across);
    unpaired = every.unpaired;
    return every.compared;
  };
  const compared = await compare().catch((error: unknown) => {
    // A failure shared by every pair (e.g. the batched diff): each peer becomes unknown, the scan survives.
    if (!isAirspaceError(error)) throw error;
    for (const line of found.traffic) unknown.push({ id: line.id, reason: gitMessages.peerFailed(line.id, error.message) });
    return [];
  });
  const pairs: PairWorkingSets[] = [];
  for (const pair of compared) {
    if (pair.base.base === null) unknown.push({ id: pair.b.id, with: pair.a.id, reason: pair.base.reason });
    else if (pair.workingSetA && pair.workingSetB) {
      if (pair.unparsed) unknown.push({ id: pair.b.id, with: pair.a.id, reason: gitMessages.diffUnparsed });
      pairs.push({
        a: pair.a.id,
        b: pair.b.id,
        base: pair.base.base,
        workingSetA: pair.workingSetA,
        workingSetB: pair.workingSetB,
        states: { a: targetOf(pair.a), b: targetOf(pair.b), fromBase: true },
      });
    }
  }
  const summary = (line: LineOfWork): ScannedAgent => ({
    id: line.id,
    kind: line.kind,
    commits: line.commitsSinceTrunk,
    uncommittedFiles: line.uncommittedPaths?.length ?? 0,
  });
  return {
    toplevel: repo.toplevel,
    commonDir: repo.commonDir,
    gitDir: repo.gitDir,
    ownship: found.ownship,
    traffic: found.traffic,
    pairs,
    ...(unpaired ? { unpaired } : {}),
    unknown,
    scanned: {
      at,
      remote: { name: options.remote, configured: found.hasRemote },
      trunk: found.trunk?.ref ?? null,
      fetch,
      userFetch,
      shallow: repo.isShallow,
      ownship: found.ownship ? summary(found.ownship) : null,
      peers: found.traffic.map(summary),
      remoteBranches: found.remoteBranches,
      notes,
      timings: { discoveryMs: Math.round(discovered - started), pairsMs: Math.round(performance.now() - discovered) },
    },
    ...(found.beaconListing ? { beaconListing: found.beaconListing } : {}),
    agesOutAt: found.agesOutAt,
    ...(found.hasRemote ? { remoteBranchNames: found.remoteBranchNames } : {}),
  };
}

function lineList(ownship: LineOfWork | null, traffic: readonly LineOfWork[]): LineOfWork[] {
  return ownship ? [ownship, ...traffic] : [...traffic];
}

function pairList(ownship: LineOfWork | null, traffic: readonly LineOfWork[]): (readonly [LineOfWork, LineOfWork])[] {
  return ownship ? traffic.map((peer) => [ownship, peer]) : [];
}

/**
 * Lines whose working set a later stage may still grow, so that none of their pairs may be left
 * unbuilt: the ownship (its own intent; a pushed ref judged instead of the worktree) and a branch a
 * beacon of its name may be merged into (src/run/beacon-traffic.ts). A beacon of agent X lives at a
 * ref whose last component is X encoded (src/beacon/agent-ref.ts); without a listing, any branch
 * may get one. A worktree's declared intent is added later and checked there (unpaired-pairs.ts).
 */
function mayGainPaths(ownship: LineOfWork | null, listing: readonly string[] | undefined): (line: LineOfWork) => boolean {
  // A listing line is `refname NUL objecttype NUL …` (src/git/list-refs.ts `also`).
  const beaconAgents = listing ? new Set(listing.map((line) => lastComponent(line.split('\0', 1)[0]!))) : null;
  return (line) =>
    line === ownship || line.kind === 'beacon' || (line.kind === 'branch' && (beaconAgents === null || beaconAgents.has(encodeAgentId(line.id))));
}

function lastComponent(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}
