import { relative, sep } from 'node:path';
import { gitZ } from '../git/exec-git.js';
import { resolveRepo } from '../git/resolve-repo.js';
import { parseWorktreeList } from '../traffic/discover-worktrees.js';

/**
 * What `watch` listens to: every worktree's files, and in the common git dir only what moves
 * a line of work — HEAD, the index, refs (commits, fetches, beacons), per linked worktree its HEAD
 * and index. Never objects, logs or our own `airspace/` cache: a run writes there (snapshot
 * commits, history) and must not wake the watcher that started it.
 */
export interface WatchPaths {
  readonly commonDir: string;
  readonly worktrees: readonly string[];
}

export async function watchPaths(cwd: string): Promise<WatchPaths> {
  const repo = await resolveRepo(cwd);
  const entries = parseWorktreeList(await gitZ(['worktree', 'list', '--porcelain', '-z'], { cwd: repo.toplevel }));
  return { commonDir: repo.commonDir, worktrees: entries.filter((e) => !e.bare && !e.prunable).map((e) => e.path) };
}

const SKIPPED_DIR = /(^|[\\/])(node_modules|\.git)([\\/]|$)/;
const GIT_FILES = new Set(['HEAD', 'index', 'packed-refs', 'FETCH_HEAD']);

/** True for a path the watcher must not report (or descend into). */
export function ignoredPath(path: string, paths: WatchPaths): boolean {
  const inGit = relative(paths.commonDir, path);
  if (inGit === '') return false;
  if (!inGit.startsWith('..')) return !gitPathMatters(inGit.split(sep));
  return SKIPPED_DIR.test(path);
}

/** `refs/**`, the top-level files above, `worktrees/<name>/{HEAD,index}` and the folders leading there. */
function gitPathMatters(parts: readonly string[]): boolean {
  const [first, second, third] = parts;
  // git writes `<name>.lock` and renames it into place: the rename is reported under the name
  // itself. A lock names no worktree's ref (`refs/heads/b.lock` is no branch), so it would
  // re-score every worktree on each commit.
  if (parts.at(-1)?.endsWith('.lock')) return false;
  if (first === 'refs') return true;
  if (parts.length === 1) return GIT_FILES.has(first!) || first === 'worktrees';
  if (first === 'worktrees') return parts.length === 2 || (parts.length === 3 && (third === 'HEAD' || third === 'index') && second !== undefined);
  return false;
}
