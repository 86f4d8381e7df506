import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit } from './exec-git.js';

/**
 * When each file was last edited on a line of work.
 * Committed: the committer time of the newest commit on `base..tip` touching it, from ONE
 * `git log --name-only -z` pass (not one call per file). Renames are not followed (`--no-renames`):
 * the side path is what the last commit touched. Merge commits list no files in `git log`, so a
 * file's time comes from the commit that really changed it.
 */
export async function lastCommitTimes(cwd: string, base: string | null, tip: string): Promise<Map<string, number>> {
  const range = base === null ? [tip] : [`${base}..${tip}`];
  const { stdout } = await runGit(['log', '--format=%x01%ct', '--name-only', '-z', '--no-renames', '--end-of-options', ...range, '--'], { cwd });
  return parseLogTimes(stdout.toString('utf8'));
}

/**
 * Output shape: `\x01<ct>\0` then `\n<first path>\0<path>\0…` per commit. The newline before the
 * first path belongs to the format, not to the name, so exactly one is stripped.
 */
export function parseLogTimes(output: string): Map<string, number> {
  const times = new Map<string, number>();
  let current = 0;
  let first = false;
  for (const field of output.split('\0')) {
    if (field.startsWith('\x01')) {
      current = Number(field.slice(1)) * 1000;
      first = true;
      continue;
    }
    const path = first && field.startsWith('\n') ? field.slice(1) : field;
    first = false;
    if (path === '') continue;
    if ((times.get(path) ?? -Infinity) < current) times.set(path, current);
  }
  return times;
}

/** Uncommitted files: their mtime in the worktree (epoch ms); a deleted file has none (null). */
export async function worktreeMtimes(worktree: string, paths: Iterable<string>): Promise<Map<string, number | null>> {
  const entries = await Promise.all(
    [...paths].map(async (path) => {
      const info = await lstat(join(worktree, path)).catch(() => undefined);
      return [path, info ? Math.round(info.mtimeMs) : null] as const;
    }),
  );
  return new Map(entries);
}
