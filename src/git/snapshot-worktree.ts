import { lstat, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from '../fs/temp-dir.js';
import { AirspaceError } from '../errors.js';
import { gitMessages } from '../messages/command-line.js';
import { git as runGitText, type GitOptions } from './exec-git.js';
import type { RepoInfo } from './resolve-repo.js';
import { readWorktreeStatus, worktreeSidePaths, type WorktreeStatus } from './worktree-status.js';

/**
 * A worktree's state as git objects: its uncommitted work frozen into a tree and a commit whose
 * parent is HEAD (no ref points at it). Clean: the commit is HEAD itself (null only in a
 * repository with no commits and no files).
 */
export type WorktreeSnapshot =
  | { readonly tree: string; readonly dirty: true; readonly commit: string }
  | { readonly dirty: false; readonly commit: string | null };

/** What a snapshot needs to know about a worktree (a RepoInfo, or a peer read without rev-parse). */
export type SnapshotTarget = Pick<RepoInfo, 'toplevel' | 'gitDir' | 'indexFile' | 'head'>;

export interface SnapshotOptions {
  /**
   * Kept for callers: the index read is always `repo.indexFile`, which resolveRepo with
   * inheritRepoEnv already points at the index git is building (GIT_INDEX_FILE).
   */
  readonly inheritRepoEnv?: boolean;
  /** Fixed author/committer date for the snapshot commit (tests; makes the commit id stable). */
  readonly date?: string;
}

/** The index bytes a snapshot starts from, read once (the cache key hashes the same bytes). */
export interface IndexCopy {
  readonly bytes: Buffer | null;
  readonly mtimeMs: number;
}

/**
 * Freezes the worktree without touching the user's index: `git status` lists what differs, then
 * a COPY of the index gets exactly those paths re-read (`update-index --add --remove`) and
 * `write-tree`. That is what `git add -A` on the copy would do, without its second stat walk over
 * every file: status already did it. A clean status is HEAD itself (no process more).
 */
export async function snapshotWorktree(repo: SnapshotTarget, options: SnapshotOptions = {}): Promise<WorktreeSnapshot> {
  try {
    const index = await readIndex(repo.indexFile);
    const status = await readWorktreeStatus(repo);
    return await snapshotFromStatus(repo, index, status, options);
  } catch (error) {
    throw snapshotError(error);
  }
}

export async function readIndex(indexFile: string): Promise<IndexCopy> {
  try {
    const [bytes, info] = await Promise.all([readFile(indexFile), stat(indexFile)]);
    return { bytes, mtimeMs: info.mtimeMs };
  } catch (error) {
    // No index yet (fresh `git init`): git starts from scratch.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { bytes: null, mtimeMs: 0 };
    throw error;
  }
}

/** The snapshot of a worktree whose status was just read (`index` read before the status). */
export async function snapshotFromStatus(
  repo: SnapshotTarget,
  index: IndexCopy,
  status: WorktreeStatus,
  options: SnapshotOptions = {},
): Promise<WorktreeSnapshot> {
  if (status.entries.length === 0) return { dirty: false, commit: repo.head };
  const dir = await makeTempDir('airspace-index-');
  const tempIndex = join(dir, 'index');
  try {
    const large = await largeUntracked(repo.toplevel, status.entries);
    const paths = worktreeSidePaths(status.entries).filter((path) => !large.has(path));
    await writeIndexCopy(index, tempIndex, await earliestEdit(repo.toplevel, paths));
    // The repository is named explicitly, so the inherited GIT_DIR/GIT_INDEX_FILE are not needed
    // here: only our temp index may be written.
    const env = { GIT_INDEX_FILE: tempIndex, GIT_DIR: repo.gitDir, GIT_WORK_TREE: repo.toplevel };
    const cwd = repo.toplevel;
    // With core.splitIndex on, writing the temp index would also write a `sharedindex.<sha>` into
    // the git dir (shared indexes always live there) that nothing ever removes: one per snapshot.
    // A whole index in the temp file instead; reading a split copy still finds the user's shared part.
    const git = (args: readonly string[], options: GitOptions) => runGitText(['-c', 'core.splitIndex=false', ...args], options);
    const skipLarge = [...large].map((path) => `:(exclude,literal)${path}`);
    const addAll = ['add', '-A', '--ignore-errors', '--', '.', ...skipLarge];
    // An untracked nested repository is listed as `dir/`: only `add` knows to record it as a gitlink.
    if (paths.some((path) => path.endsWith('/'))) await git(addAll, { cwd, env });
    else if (paths.length > 0) {
      const input = paths.map((path) => `${path}\0`).join('');
      await git(['update-index', '--add', '--remove', '-z', '--stdin'], { cwd, env, input }).catch(() =>
        // A file that vanished or cannot be read mid-run: `add --ignore-errors` skips it, as before.
        git(addAll, { cwd, env }),
      );
    }
    if (large.size > 0) await addPlaceholders(git, cwd, env, large);
    const tree = await git(['write-tree'], { cwd, env });
    // One date for every snapshot: the same work on the same HEAD is the same commit, so checking an
    // unchanged dirty worktree again writes no object (ten checks wrote 44 unreachable ones).
    const date = options.date ?? SNAPSHOT_DATE;
    const dateEnv: Record<string, string> = { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
    const commitEnv = {
      GIT_AUTHOR_NAME: 'airspace-hooks',
      GIT_AUTHOR_EMAIL: 'airspace@localhost',
      GIT_COMMITTER_NAME: 'airspace-hooks',
      GIT_COMMITTER_EMAIL: 'airspace@localhost',
      ...dateEnv,
    };
    const parents = repo.head === null ? [] : ['-p', repo.head];
    const commit = await git(['commit-tree', tree, ...parents, '-m', 'airspace snapshot of uncommitted work'], { cwd, env: commitEnv });
    return { tree, commit, dirty: true };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Untracked files this large are never read into the object store (a 200 MB video added 190 MB to
 * .git/objects on every change, and hashing it took the whole budget): they enter the snapshot as
 * one small binary placeholder, so the file still counts — as a whole-file edit, git's "binary
 * files differ" — and a peer adding the same path still conflicts with it.
 */
/** The fixed date of snapshot commits (nothing reads it: edit times come from the files). */
const SNAPSHOT_DATE = '@1000000000 +0000';

export const LARGE_UNTRACKED_BYTES = 4 * 1024 * 1024;
const PLACEHOLDER = 'airspace-hooks: a large untracked file, not read into git\0\n';

async function largeUntracked(toplevel: string, entries: WorktreeStatus['entries']): Promise<Set<string>> {
  const untracked = entries.filter((entry) => entry.x === '?' && !entry.path.endsWith('/'));
  const sizes = await Promise.all(
    untracked.map((entry) =>
      stat(join(toplevel, entry.path)).then(
        (info) => (info.isFile() ? info.size : 0),
        () => 0,
      ),
    ),
  );
  return new Set(untracked.filter((_, i) => sizes[i]! > LARGE_UNTRACKED_BYTES).map((entry) => entry.path));
}

async function addPlaceholders(
  git: (args: readonly string[], options: GitOptions) => Promise<string>,
  cwd: string,
  env: Record<string, string>,
  large: ReadonlySet<string>,
): Promise<void> {
  const blob = await git(['hash-object', '-w', '--stdin'], { cwd, env, input: PLACEHOLDER });
  const input = [...large].map((path) => `100644 ${blob}\t${path}\0`).join('');
  await git(['update-index', '--add', '-z', '--index-info'], { cwd, env, input });
}

export function snapshotError(error: unknown): AirspaceError {
  const detail = error instanceof Error ? error.message : String(error);
  return new AirspaceError('git', 'snapshot-failed', gitMessages.snapshotFailed(detail), { cause: error });
}

/**
 * Write the copy stamped no later than the index, or than the earliest edit among the paths the
 * snapshot re-reads (`since`, whole seconds), whichever is later. Git trusts an entry's cached stat
 * data only when the file is older than the index file itself ("racy git"): a copy stamped "now"
 * would make a file edited in the same second as the last `git add` look unchanged. Only the paths
 * `git status` listed are re-read, and each of them is at least as new as `since`, so each is
 * re-checked; every other entry is written back as it is, and its stat data is never asked. Why not
 * simply the index's own stamp: writing the copy, git re-hashes every entry it finds racy, and in a
 * fresh clone that is nearly every file (checked out in the second the index was written; 8,000
 * files, ≈ 0.1 s, docs/decisions/beacon-areas.md) — the user's index stays racy until their own git
 * rewrites it, since we never write it. The index's stamp is rounded down, which only makes git
 * re-check more files, never fewer.
 */
async function writeIndexCopy(index: IndexCopy, to: string, since: number): Promise<void> {
  if (index.bytes === null) return;
  await writeFile(to, index.bytes);
  const mtime = new Date(Math.max(Math.floor(index.mtimeMs) - 1, since));
  await utimes(to, mtime, mtime);
}

/**
 * The earliest modification time among `paths` that exist (as git stats them: a link itself), in
 * whole seconds, as ms; none: now, when nothing is re-read that stat data could vouch for.
 */
async function earliestEdit(toplevel: string, paths: readonly string[]): Promise<number> {
  const times = await Promise.all(
    paths.map((path) =>
      lstat(join(toplevel, path)).then(
        (info) => (info.isDirectory() ? Infinity : info.mtimeMs),
        () => Infinity,
      ),
    ),
  );
  let earliest = Infinity;
  for (const time of times) earliest = Math.min(earliest, time);
  return Number.isFinite(earliest) ? Math.floor(earliest / 1000) * 1000 : Date.now();
}
