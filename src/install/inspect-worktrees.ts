import { realpath } from 'node:fs/promises';
import { gitZ } from '../git/exec-git.js';
import { parseWorktreeList } from '../traffic/discover-worktrees.js';
import { mapLimit } from '../traffic/limit-concurrency.js';
import { hookCoverage, type HookProtection } from './hook-coverage.js';
import { failingChains, type FailingChain } from './inspect-chained-hooks.js';

export interface WorktreeCoverage {
  readonly path: string;
  readonly branch: string | null;
  /** The worktree doctor runs in. */
  readonly current: boolean;
  readonly protection: HookProtection;
  /** Hooks whose commands before ours cannot work in this worktree (src/install/inspect-chained-hooks.ts). */
  readonly failingChains: readonly FailingChain[];
}

/**
 * doctor's view of every worktree of the repository, from whichever one it runs in: one
 * `worktree list` and one `git config` per worktree, then a few stats and small reads. Bare
 * entries and worktrees whose folder is gone are left out (git runs no hook there).
 */
export async function inspectWorktrees(cwd: string, toplevel: string, commonDir: string): Promise<WorktreeCoverage[]> {
  const entries = parseWorktreeList(await gitZ(['worktree', 'list', '--porcelain', '-z'], { cwd })).filter((entry) => !entry.bare && !entry.prunable);
  const here = await realpath(toplevel).catch(() => toplevel);
  return mapLimit(entries, 4, async (entry) => {
    const protection = await hookCoverage(entry.path, commonDir);
    return {
      path: entry.path,
      branch: entry.branch,
      current: (await realpath(entry.path).catch(() => entry.path)) === here,
      protection,
      failingChains: failingChains(entry.path, protection.hooksDir),
    };
  });
}
