import { createHash } from 'node:crypto';
import { runGit } from './exec-git.js';

/**
 * What a worktree's index says, as a digest: every entry's path, mode, blob and stage, and its
 * assume-unchanged or skip-worktree tag (`ls-files -s -v`) — what `git status` reads from the index
 * besides the stat data it only uses to skip re-hashing files. Two indexes with the same digest give
 * the same status and the same snapshot (src/git/snapshot-worktree.ts): the one difference it cannot
 * see, an intent-to-add entry against a staged empty file, the snapshot takes alike (both are the
 * file's content in the worktree). Read only: `ls-files` takes no lock and writes nothing, so it
 * may read git's own `index.lock` while `git commit` holds it.
 */
export async function indexFingerprint(toplevel: string, indexFile: string): Promise<string> {
  const { stdout } = await runGit(['ls-files', '-s', '-v', '-z'], { cwd: toplevel, env: { GIT_INDEX_FILE: indexFile } });
  return createHash('sha256').update(stdout).digest('hex');
}
