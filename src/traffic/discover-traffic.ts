import { changedPaths } from '../git/diff-working-set.js';
import { lineContains, MAX_COMMITS, readCommitGraph, summarizeLine, type CommitGraph } from '../git/branch-history.js';
import { branchName, listRefs, remoteBranches, remoteBranchTip, type RefListing } from '../git/list-refs.js';
import type { RepoInfo } from '../git/resolve-repo.js';
import { resolveTrunk, type Trunk } from '../git/resolve-trunk.js';
import { coverageOfResolvedHooksDir } from '../install/hook-coverage.js';
import { reflogCommits } from '../git/reflog.js';
import { snapshotWorktree } from '../git/snapshot-worktree.js';
import { resolveExplicitAgents } from './discover-explicit-agents.js';
import { discoverRemoteBranches, type BranchFilter } from './discover-remote-branches.js';
import { discoverWorktrees } from './discover-worktrees.js';
import { worktreeAgentId, type LineOfWork } from './line-of-work.js';

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** A line of work before its priority facts are known (they need the one shared `git log`). */
type Draft = Pick<LineOfWork, 'id' | 'kind' | 'tip' | 'snapshot' | 'worktreePath' | 'gitDir' | 'branch' | 'uncommittedPaths' | 'protection'> & {
  /** The commit both machines can see for the right-of-way facts; null = nothing pushed. */
  readonly pushed: string | null;
};

export interface TrafficOptions extends BranchFilter {
  readonly remote: string;
  readonly trunk?: string;
  /** `NAME=REV` specs: when given, they ARE the traffic (no discovery). */
  readonly agents?: readonly string[];
  readonly inheritRepoEnv?: boolean;
  readonly subjectCap?: number;
  /** Judge this commit as the ownship instead of the worktree (pre-push: what is pushed). */
  readonly ownshipAs?: OwnshipAs;
  /** The fetched beacons' ref prefix: listed by the branches' `for-each-ref` (see `beaconListing`). */
  readonly beaconRefs?: string;
}

/**
 * A pushed ref as the ownship: the commit being pushed under the branch name peers will see it by.
 * Uncommitted work is not pushed, so it takes no part; the worktree's git dir is kept when the
 * pushed branch is the one checked out here (its intent and inbox live there).
 */
export interface OwnshipAs {
  readonly id: string;
  readonly branch: string;
  readonly tip: string;
  readonly gitDir?: string;
}

export interface DiscoveredTraffic {
  readonly ownship: LineOfWork | null;
  readonly traffic: LineOfWork[];
  readonly unknown: { id: string; reason: string }[];
  readonly notes: string[];
  readonly trunk: Trunk | null;
  readonly hasRemote: boolean;
  /** Remote branches looked at (after globs and age) and how many had work not in the trunk. */
  readonly remoteBranches: { readonly considered: number; readonly active: number };
  /** The name of every branch the remote has as the listing knows it (no glob or age filter). */
  readonly remoteBranchNames: ReadonlySet<string>;
  /**
   * When the first remote branch looked at becomes older than `maxAgeDays` (epoch ms; Infinity:
   * none can): until then the age filter decides as it did at `at` (a branch filtered out stays out).
   */
  readonly agesOutAt: number;
  /** Every line's commits not in the trunk; complete = cut at a trunk and not capped. */
  readonly graph: CommitGraph;
  readonly graphComplete: boolean;
  /** With `beaconRefs`: the beacon refs, newest first, for readBeacons' `listing` (src/git/list-refs.ts). */
  readonly beaconListing?: readonly string[];
}

/**
 * Ownship and traffic, with the git calls batched: one `for-each-ref`, one `worktree list`, one
 * snapshot per worktree, and ONE `git log` for the commit subjects and priority facts of every line.
 */
export async function discoverTraffic(repo: RepoInfo, options: TrafficOptions): Promise<DiscoveredTraffic> {
  const cwd = repo.toplevel;
  const explicit = options.agents !== undefined && options.agents.length > 0;
  const [listing, ownWork, worktrees, named] = await Promise.all([
    listRefs(cwd, options.remote, options.beaconRefs !== undefined ? { also: options.beaconRefs } : {}),
    options.ownshipAs ? pushedDraft(repo, options.ownshipAs) : ownshipDraft(repo, options.inheritRepoEnv),
    explicit ? undefined : discoverWorktrees(cwd, repo.toplevel, repo.commonDir),
    explicit ? resolveExplicitAgents(cwd, options.agents!) : undefined,
  ]);
  // The ownship's coverage costs no process: its rev-parse resolved the hooks dir already.
  const ownDraft =
    ownWork && ownWork.kind === 'worktree' ? { ...ownWork, protection: coverageOfResolvedHooksDir(repo.toplevel, repo.commonDir, repo.hooksDir) } : ownWork;
  const trunk = resolveTrunk(listing, options.remote, options.trunk);
  const pushedOf = (branch: string | null, fallback: string | null): string | null => pushedRef(listing, options.remote, branch, fallback);
  const unknown = [...(worktrees?.unknown ?? []), ...(named?.unknown ?? [])];
  const notes = [...(worktrees?.notes ?? [])];

  const drafts: Draft[] = [];
  for (const peer of worktrees?.worktrees ?? []) {
    const { path, branch, ...rest } = peer;
    // The pushed branch may be checked out in another worktree: it is the ownship, not traffic.
    if (ownDraft && peer.id === ownDraft.id) continue;
    drafts.push({ ...rest, kind: 'worktree', worktreePath: path, ...(branch ? { branch } : {}), pushed: pushedOf(branch, peer.tip) });
  }
  for (const agent of named?.agents ?? []) drafts.push({ id: agent.id, kind: 'revision', tip: agent.sha, pushed: agent.sha });
  const skip = new Set([...(trunk ? [trunk.name] : []), ...drafts.map((draft) => draft.id)]);
  const candidates = explicit ? [] : discoverRemoteBranches(listing, options.remote, skip, options);
  const ownBranch = ownDraft?.branch;
  const remote = candidates.filter((branch) => branch.id !== ownBranch);
  const sameName = candidates.find((branch) => branch.id === ownBranch);

  // No commits yet: the ownship's tip is its snapshot, which nobody else can see; nothing counts.
  const ownTip = options.ownshipAs ? options.ownshipAs.tip : ownDraft && repo.head !== null ? repo.head : null;
  const ownPushed = ownTip ? pushedOf(ownDraft?.branch ?? null, ownTip) : null;
  const tips = [
    ...(ownTip ? [ownTip] : []),
    ...(ownPushed ? [ownPushed] : []),
    ...drafts.flatMap((d) => [d.tip, ...(d.pushed ? [d.pushed] : [])]),
    ...remote.map((r) => r.sha),
    ...(sameName ? [sameName.sha] : []),
  ];
  const graph = await readCommitGraph(cwd, tips, trunk?.sha ?? null);
  const active = remote.filter((branch) => summarizeLine(graph, branch.sha).count > 0);
  for (const branch of active) drafts.push({ id: branch.id, kind: 'branch', tip: branch.sha, branch: branch.id, pushed: branch.sha });
  const theirs = sameName && ownTip ? await otherWorkUnderOurName(cwd, graph, sameName, ownTip, options.remote) : null;
  if (theirs && !drafts.some((draft) => draft.id === theirs.id)) drafts.push(theirs);

  const cap = options.subjectCap ?? 10;
  return {
    ownship: ownDraft ? finish({ ...ownDraft, pushed: ownPushed }, graph, cap) : null,
    traffic: drafts.map((draft) => finish(draft, graph, cap)),
    unknown,
    notes,
    trunk,
    hasRemote: listing.hasRemote,
    remoteBranches: { considered: remote.length, active: active.length },
    remoteBranchNames: new Set(remoteBranches(listing, options.remote).map((entry) => branchName(entry.ref, options.remote))),
    agesOutAt: Number.isFinite(options.maxAgeDays)
      ? Math.min(Infinity, ...remote.map((branch) => branch.committedAt + options.maxAgeDays * 24 * 60 * 60 * 1000))
      : Infinity,
    graph,
    graphComplete: trunk !== null && graph.size < MAX_COMMITS,
    ...(listing.also ? { beaconListing: listing.also } : {}),
  };
}

/**
 * The remote branch of the ownship's name when the ownship's line does not contain its tip: another
 * machine's work under the same name (or ours, moved on from elsewhere). It is traffic of its own —
 * not our pushed work (see `finish`) and not nothing, or our next pull is the collision nobody was
 * warned of. Its id names the remote (`feature@origin`), since the ownship holds the plain name;
 * both machines still rank it by its branch (src/run/report-facts.ts).
 */
async function otherWorkUnderOurName(
  cwd: string,
  graph: CommitGraph,
  branch: { id: string; sha: string },
  ownTip: string,
  remote: string,
): Promise<Draft | null> {
  if (lineContains(graph, ownTip, branch.sha) || summarizeLine(graph, branch.sha).count === 0) return null;
  // Our own earlier tip (pushed, then amended, rebased or reset) is not another agent: a force push
  // of the new version must not be blocked by the old one.
  if ((await reflogCommits(cwd, branch.id)).has(branch.sha)) return null;
  return { id: `${branch.id}@${remote}`, kind: 'branch', tip: branch.sha, branch: branch.id, pushed: branch.sha };
}

/**
 * Right-of-way facts must be the same on both machines, so they count what both can see: the
 * branch's tip on the remote when the repo has the remote (not pushed yet ⇒ nothing; the newer of
 * the user's remote-tracking ref and the tool's fetched copy), the local line itself in a
 * single-machine repo (no remote).
 */
function pushedRef(listing: RefListing, remote: string, branch: string | null, local: string | null): string | null {
  if (!listing.hasRemote) return local;
  if (branch === null) return null;
  return remoteBranchTip(listing, remote, branch)?.sha ?? null;
}

function finish(draft: Draft, graph: CommitGraph, cap: number): LineOfWork {
  const { pushed: remoteTip, ...line } = draft;
  // The remote branch of this line's name is its pushed work only when the line contains it (the
  // rule the beacon fold uses, src/run/beacon-traffic.ts): two machines on one branch name have
  // different work, and the other's commits are not ours to rank by — or to claim in our beacon,
  // which every peer would then refuse as a forgery.
  const pushed = remoteTip !== null && !lineContains(graph, draft.tip, remoteTip) ? null : remoteTip;
  const facts = summarizeLine(graph, pushed, 0);
  const local = summarizeLine(graph, draft.tip, cap);
  return {
    ...line,
    subjects: local.subjects,
    commitsSinceTrunk: local.count,
    facts: { committedWork: facts.count, ...(facts.oldest !== undefined ? { startedAt: facts.oldest } : {}) },
    localFacts: { committedWork: local.count, ...(local.oldest !== undefined ? { startedAt: local.oldest } : {}) },
    published: pushed !== null,
  };
}

function pushedDraft(repo: RepoInfo, as: OwnshipAs): Promise<Omit<Draft, 'pushed'> & { branch?: string }> {
  const here = as.gitDir !== undefined ? { worktreePath: repo.toplevel, gitDir: as.gitDir } : {};
  return Promise.resolve({ id: as.id, kind: as.gitDir !== undefined ? 'worktree' : 'revision', tip: as.tip, branch: as.branch, uncommittedPaths: [], ...here });
}

async function ownshipDraft(repo: RepoInfo, inheritRepoEnv?: boolean): Promise<(Omit<Draft, 'pushed'> & { branch?: string }) | null> {
  const snapshot = await snapshotWorktree(repo, { inheritRepoEnv });
  const id = repo.branch ?? worktreeAgentId(repo.toplevel);
  const branch = repo.branch ? { branch: repo.branch } : {};
  if (!snapshot.dirty) {
    return repo.head === null
      ? null
      : { id, kind: 'worktree', tip: repo.head, worktreePath: repo.toplevel, gitDir: repo.gitDir, uncommittedPaths: [], ...branch };
  }
  // No commits yet: the snapshot is a root commit and everything in it is uncommitted.
  const from = repo.head ?? EMPTY_TREE;
  const uncommittedPaths = [...(await changedPaths(repo.toplevel, from, snapshot.commit))];
  // Status listed something whose content equals HEAD (an edit undone): clean after all.
  if (uncommittedPaths.length === 0 && repo.head !== null)
    return { id, kind: 'worktree', tip: repo.head, worktreePath: repo.toplevel, gitDir: repo.gitDir, uncommittedPaths: [], ...branch };
  const tip = repo.head ?? snapshot.commit;
  return {
    id,
    kind: 'worktree',
    tip,
    worktreePath: repo.toplevel,
    gitDir: repo.gitDir,
    uncommittedPaths,
    ...branch,
    ...(repo.head !== null ? { snapshot: snapshot.commit } : {}),
  };
}
