import { runGit } from './exec-git.js';
import { requireSafe } from './git-argument.js';

/** One local or remote-tracking branch, as `git for-each-ref` sees it. */
export interface RefEntry {
  /** Full name, e.g. `refs/remotes/origin/feature/x`. */
  readonly ref: string;
  readonly sha: string;
  /** Committer time of the tip, epoch ms. */
  readonly committedAt: number;
  /** Target of a symbolic ref (`refs/remotes/origin/HEAD` → `refs/remotes/origin/main`), else ''. */
  readonly symref: string;
}

/** Where the tool's fetch keeps the remote's branches, pruned: our namespace, never the user's. */
export const fetchedBranchPrefix = (remote: string): string => `refs/airspace/branches/${remote}/`;

export interface RefListing {
  /** Local branches and the user's remote-tracking branches of the remote. */
  readonly refs: readonly RefEntry[];
  /**
   * The remote's branches as the tool's last fetch saw them (`refs/airspace/branches/<remote>/*`,
   * pruned by that fetch); empty when this clone was never fetched by the tool.
   */
  readonly fetched: readonly RefEntry[];
  /** Whether `remote.<remote>.url` is configured (a single-machine repo has none). */
  readonly hasRemote: boolean;
  /**
   * With `also`: that prefix's refs as `--sort=-committerdate` orders them (newest first), each line
   * `refname NUL objecttype NUL objectname NUL parents` (the fetched beacons, src/beacon/read-beacons.ts).
   */
  readonly also?: readonly string[];
}

export interface ListRefsOptions {
  /** One more ref prefix (no trailing slash) listed in the same process, e.g. the fetched beacons. */
  readonly also?: string;
}

/**
 * Every local branch, every remote-tracking branch of `remote` and the tool's fetched copy of the
 * remote's branches, in ONE `for-each-ref` (plus a
 * `git config` lookup only when no remote-tracking branch answers it, see remoteConfigured). Ref names cannot contain control characters, so NUL and a
 * newline are safe separators. `%(objectname)` of a symref is the target's sha. With `also`, that
 * prefix is listed by the same process (one git process fewer per run than a second listing); the
 * whole listing is then sorted newest first, as the beacon reader needs, and the branches are put
 * back in for-each-ref's default order (refname, byte by byte).
 */
export async function listRefs(cwd: string, remote: string, options: ListRefsOptions = {}): Promise<RefListing> {
  // The remote becomes part of a ref pattern and a config key: only a plain remote name fits.
  requireSafe('remote', remote);
  // Our own constant, after --end-of-options: never read as an option.
  const also = options.also;
  const format = '%(refname)%00%(objecttype)%00%(objectname)%00%(parent)%00%(committerdate:unix)%00%(symref)';
  const branches = ['refs/heads/', `refs/remotes/${remote}/`];
  const fetchedPrefix = fetchedBranchPrefix(remote);
  const listing = await runGit(
    [
      'for-each-ref',
      ...(also !== undefined ? ['--sort=-committerdate'] : []),
      `--format=${format}`,
      '--end-of-options',
      ...branches,
      fetchedPrefix,
      ...(also !== undefined ? [also] : []),
    ],
    { cwd },
  );
  const refs: RefEntry[] = [];
  const fetched: RefEntry[] = [];
  const alsoLines: string[] = [];
  for (const line of listing.stdout.toString('utf8').split('\n')) {
    if (line === '') continue;
    const [ref = '', , sha = '', , date = '0', symref = ''] = line.split('\0');
    const entry = { ref, sha, committedAt: Number(date) * 1000, symref };
    if (ref.startsWith(fetchedPrefix)) fetched.push(entry);
    else if (also !== undefined && !branches.some((prefix) => ref.startsWith(prefix))) alsoLines.push(line);
    else refs.push(entry);
  }
  if (also !== undefined) for (const list of [refs, fetched]) list.sort((a, b) => Buffer.compare(Buffer.from(a.ref), Buffer.from(b.ref)));
  return { refs, fetched, hasRemote: await remoteConfigured(cwd, remote, refs), ...(also !== undefined ? { also: alsoLines } : {}) };
}

/**
 * Whether `remote.<remote>.url` is set. Remote-tracking branches under `refs/remotes/<remote>/`
 * are written by fetches from that configured remote, and `git remote remove` / `rename` delete or
 * move them with the configuration, so when the listing holds one the answer is yes without a
 * `git config` process (one per check, pre-commit and pre-push). Only without one is git asked.
 * Where the two can differ (a url unset by hand while its branches stay, or refs written there by
 * a hand-made refspec), those remote-tracking branches are listed as the remote's: what they are.
 */
async function remoteConfigured(cwd: string, remote: string, refs: readonly RefEntry[]): Promise<boolean> {
  const tracking = `refs/remotes/${remote}/`;
  if (refs.some((entry) => entry.ref.startsWith(tracking))) return true;
  const url = await runGit(['config', '--get', `remote.${remote}.url`], { cwd, okCodes: [1] });
  return url.code === 0 && url.stdout.toString('utf8').trim() !== '';
}

/**
 * The remote's branches as far as this clone knows them. Which exist: what the tool's last fetch
 * saw (`fetched`, pruned by that fetch) — the user's remote-tracking refs keep a deleted branch
 * until their own `git fetch --prune`, and a dead line of work is no traffic; a clone the tool never
 * fetched has only the user's refs. Each tip: the newer (committer time) of our copy and the user's
 * ref, ours on a tie — their own fetch or push since ours may have moved theirs further.
 */
export function remoteBranches(listing: RefListing, remote: string): RefEntry[] {
  const tracking = `refs/remotes/${remote}/`;
  const theirs = listing.refs.filter((entry) => entry.ref.startsWith(tracking) && entry.symref === '');
  if (listing.fetched.length === 0) return theirs;
  const byName = new Map(theirs.map((entry) => [branchName(entry.ref, remote), entry]));
  return listing.fetched.map((ours) => newer(ours, byName.get(branchName(ours.ref, remote))));
}

/**
 * One branch's tip on the remote as far as this clone knows: the user's remote-tracking ref (moved
 * by their pushes) or our fetched copy, the newer of the two; undefined when neither exists.
 */
export function remoteBranchTip(listing: RefListing, remote: string, branch: string): RefEntry | undefined {
  const ours = listing.fetched.find((entry) => entry.ref === `${fetchedBranchPrefix(remote)}${branch}`);
  const theirs = listing.refs.find((entry) => entry.ref === `refs/remotes/${remote}/${branch}`);
  return ours === undefined ? theirs : newer(ours, theirs);
}

const newer = (ours: RefEntry, theirs: RefEntry | undefined): RefEntry => (theirs !== undefined && theirs.committedAt > ours.committedAt ? theirs : ours);

/**
 * `refs/remotes/origin/feature/x` (or our fetched `refs/airspace/branches/origin/feature/x`) →
 * `feature/x`; `refs/heads/x` → `x`; anything else unchanged.
 */
export function branchName(ref: string, remote: string): string {
  for (const prefix of [`refs/remotes/${remote}/`, fetchedBranchPrefix(remote)]) if (ref.startsWith(prefix)) return ref.slice(prefix.length);
  if (ref.startsWith('refs/heads/')) return ref.slice('refs/heads/'.length);
  return ref;
}

/**
 * The paths a line of work touches since the trunk, for choosing which beacon areas to read
 * (src/run/collect-traffic.ts): `tip` null = this worktree, its commits and its staged and unstaged
 * edits in ONE `git diff --merge-base` (merge-base of the trunk and HEAD against the working tree),
 * plus its untracked files (`ls-files --others`); else a pushed commit's `<trunk>...<tip>`. Both
 * sides of a rename (`--no-renames`). Null when the trunk is unknown here (no such ref): the caller
 * then reads every beacon.
 */
export async function touchedPaths(cwd: string, trunk: string, tip: string | null): Promise<string[] | null> {
  requireSafe('trunk', trunk);
  if (tip !== null) requireSafe('revision', tip);
  const range = tip === null ? ['--merge-base', trunk] : [`${trunk}...${tip}`];
  const [diff, untracked] = await Promise.all([
    runGit(['diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', ...range, '--'], { cwd, okCodes: [128] }),
    tip === null ? runGit(['ls-files', '--others', '--exclude-standard', '-z'], { cwd }) : null,
  ]);
  if (diff.code !== 0) return null;
  const fields = (buffer: Buffer): string[] =>
    buffer
      .toString('utf8')
      .split('\0')
      .filter((field) => field !== '');
  return [...fields(diff.stdout), ...(untracked ? fields(untracked.stdout) : [])];
}
