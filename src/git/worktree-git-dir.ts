import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * The git dir of a worktree from its `.git` entry, without a git process (one `rev-parse` per
 * peer worktree was ~10 % of a hook's processes): a directory in the main worktree, a
 * `gitdir: <path>` file in a linked one (relative paths are relative to the worktree, as git
 * reads them). Null when neither can be read.
 */
export async function readWorktreeGitDir(worktreePath: string): Promise<string | null> {
  const dotGit = join(worktreePath, '.git');
  try {
    const info = await stat(dotGit);
    if (info.isDirectory()) return dotGit;
    const match = /^gitdir: (.+)$/m.exec(await readFile(dotGit, 'utf8'));
    return match ? resolve(worktreePath, match[1]!.trim()) : null;
  } catch {
    return null;
  }
}
