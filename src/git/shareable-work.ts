import { makeTempDir } from '../fs/temp-dir.js';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit, type GitOptions } from './exec-git.js';

/**
 * The agent's work as it may leave the machine: the snapshot commit (src/git/snapshot-worktree.ts)
 * holds untracked, non-ignored files too — a `.env.local`, a private key — and the beacon commit's
 * parent travels to every peer. Untracked means the user never chose to share the file, so its
 * content is cut out of the published copy: its name and line ranges still travel in the beacon
 * JSON (the working set), its bytes do not. See docs/decisions/beacons.md.
 */
export interface ShareableWork {
  /** The commit to publish: the work itself, or a copy of it without the untracked files. */
  readonly commit: string;
  /** Untracked files whose content was left out (shared by name only). */
  readonly untrackedByName: number;
}

export interface ShareableWorkOptions {
  /** The worktree's HEAD (the beacon's `head`): work equal to it is committed work, shared as it is. */
  readonly head: string | null;
  readonly timeoutMs?: number;
  /** Identity and date of the copy (the beacon's fixed identity, so an unchanged copy is the same commit). */
  readonly commitEnv: Readonly<Record<string, string>>;
}

/**
 * `work` without the files it adds or changes that the worktree's index does not track. Only what
 * the snapshot changed against its parent (HEAD) is looked at: committed files are shared by the
 * commit itself, staged files by `git add`. The copy is built in a temporary index (`read-tree`, then
 * `update-index --force-remove`), so the user's index is never read for writing nor touched.
 */
export async function withoutUntrackedContent(cwd: string, work: string, options: ShareableWorkOptions): Promise<ShareableWork> {
  const git = (args: readonly string[], extra: Partial<GitOptions> = {}) =>
    runGit(['-c', 'core.splitIndex=false', ...args], { cwd, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}), ...extra });
  // No process for a clean worktree (pre-push publishes the pushed commit): nothing untracked in it.
  if (options.head === work) return { commit: work, untrackedByName: 0 };
  const [addedOut, indexOut, parentsOut] = await Promise.all([
    // Every path the snapshot adds or changes (`d`: all but deletions), not only additions: a file
    // `git rm --cached` untracked is in HEAD and may hold new content now. --root: a snapshot in a
    // repository with no commit yet has no parent, and every path is new.
    git(['diff-tree', '-r', '--root', '--no-commit-id', '--no-renames', '-z', '--name-only', '--diff-filter=d', work]),
    git(['ls-files', '-z', '--cached']),
    git(['rev-list', '--parents', '-n', '1', work]),
  ]);
  const tracked = new Set(nulList(indexOut.stdout));
  const untracked = nulList(addedOut.stdout).filter((path) => !tracked.has(path));
  if (untracked.length === 0) return { commit: work, untrackedByName: 0 };
  const parents = parentsOut.stdout.toString('utf8').trim().split(/\s+/).slice(1);
  const dir = await makeTempDir('airspace-index-');
  try {
    const env = { GIT_INDEX_FILE: join(dir, 'index') };
    await git(['read-tree', work], { env });
    await git(['update-index', '--force-remove', '-z', '--stdin'], { env, input: untracked.map((path) => `${path}\0`).join('') });
    const tree = (await git(['write-tree'], { env })).stdout.toString('utf8').trim();
    const parentArgs = parents.flatMap((parent) => ['-p', parent]);
    const commit = (
      await git(['commit-tree', '--no-gpg-sign', ...parentArgs, '-m', 'airspace snapshot of uncommitted work (untracked files by name only)', tree], {
        env: options.commitEnv,
      })
    ).stdout
      .toString('utf8')
      .trim();
    return { commit, untrackedByName: untracked.length };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function nulList(bytes: Buffer): string[] {
  return bytes
    .toString('utf8')
    .split('\0')
    .filter((path) => path !== '');
}
