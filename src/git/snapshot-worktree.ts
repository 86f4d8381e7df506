import { copyFile, mkdtemp, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AirspaceError } from '../errors.js';
import { gitMessages } from '../messages/git.js';
import { git } from './exec-git.js';
import type { RepoInfo } from './resolve-repo.js';

/**
 * A worktree's state as git objects: its uncommitted work frozen into a tree and a commit whose
 * parent is HEAD (no ref points at it). Clean: the commit is HEAD itself (null only in a
 * repository with no commits and no files).
 */
export type WorktreeSnapshot =
  | { readonly tree: string; readonly dirty: true; readonly commit: string }
  | { readonly tree: string; readonly dirty: false; readonly commit: string | null };

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export interface SnapshotOptions {
  /** Read the index the caller's git is building (GIT_INDEX_FILE inside `git commit -a`). */
  readonly inheritRepoEnv?: boolean;
  /** Fixed author/committer date for the snapshot commit (tests; makes the commit id stable). */
  readonly date?: string;
}

/**
 * Freezes the worktree without touching the user's index: the index is copied to a temp file and
 * `git add -A` + `git write-tree` run against the copy (GIT_INDEX_FILE). Starting from a copy of the
 * real index keeps stat info, so `add -A` only re-hashes files that changed, and staged-but-since-
 * reverted content is judged by the worktree, which is what a commit of "everything" would hold.
 * `add -A` respects .gitignore and includes untracked files, the same set `git status` shows.
 */
export async function snapshotWorktree(repo: RepoInfo, options: SnapshotOptions = {}): Promise<WorktreeSnapshot> {
  const dir = await mkdtemp(join(tmpdir(), 'airspace-index-'));
  const tempIndex = join(dir, 'index');
  try {
    await copyIndex(repo.indexFile, tempIndex);
    // The repository is named explicitly, so the inherited GIT_DIR/GIT_INDEX_FILE are not needed
    // here: only our temp index may be written.
    const env = { GIT_INDEX_FILE: tempIndex, GIT_DIR: repo.gitDir, GIT_WORK_TREE: repo.toplevel };
    const cwd = repo.toplevel;
    const [, headTree] = await Promise.all([
      git(['add', '-A', '--ignore-errors', '--', '.'], { cwd, env }),
      repo.head === null ? EMPTY_TREE : git(['rev-parse', `${repo.head}^{tree}`], { cwd }),
    ]);
    const tree = await git(['write-tree'], { cwd, env });
    if (tree === headTree) return { tree, commit: repo.head, dirty: false };
    const dateEnv: Record<string, string> = options.date ? { GIT_AUTHOR_DATE: options.date, GIT_COMMITTER_DATE: options.date } : {};
    const commitEnv = { GIT_AUTHOR_NAME: 'airspace-hooks', GIT_AUTHOR_EMAIL: 'airspace@localhost', GIT_COMMITTER_NAME: 'airspace-hooks', GIT_COMMITTER_EMAIL: 'airspace@localhost', ...dateEnv };
    const parents = repo.head === null ? [] : ['-p', repo.head];
    const commit = await git(['commit-tree', tree, ...parents, '-m', 'airspace snapshot of uncommitted work'], { cwd, env: commitEnv });
    return { tree, commit, dirty: true };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new AirspaceError('git', 'snapshot-failed', gitMessages.snapshotFailed(detail), { cause: error });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Copy the index WITH its mtime. Git trusts an entry's cached stat data only when the file is older
 * than the index file itself ("racy git"): a copy stamped "now" would make a file edited in the same
 * second as the last `git add` look unchanged. The copied mtime is rounded down, which only makes
 * git re-check more files, never fewer. No index yet (fresh `git init`): git starts from scratch.
 */
async function copyIndex(from: string, to: string): Promise<void> {
  try {
    const info = await stat(from);
    await copyFile(from, to);
    await utimes(to, info.atime, new Date(Math.floor(info.mtimeMs) - 1));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
