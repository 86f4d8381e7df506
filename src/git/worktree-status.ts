import { runGit } from './exec-git.js';

/**
 * `git status` of one worktree, the one stat walk every snapshot needs (the hook's floor). Its
 * output is both the list of paths a snapshot must re-read and part of the snapshot cache's key.
 */

/** One `XY path` record of `git status --porcelain -z` (X: index vs HEAD, Y: worktree vs index). */
export interface StatusEntry {
  readonly x: string;
  readonly y: string;
  readonly path: string;
}

/** Which worktree, git dir and index to compare (absolute paths). */
export interface StatusTarget {
  readonly toplevel: string;
  readonly gitDir: string;
  readonly indexFile: string;
}

export interface WorktreeStatus {
  /** The raw output: byte-identical output ⇔ git saw the same changes (part of the cache key). */
  readonly raw: Buffer;
  readonly entries: readonly StatusEntry[];
}

/** Same shape as the graph layer's WorktreeChanges: paths relative to the worktree's top level. */
export interface StatusChanges {
  readonly modified: readonly string[];
  readonly deleted: readonly string[];
  readonly untracked: readonly string[];
}

/**
 * Every flag is pinned because the output must list exactly what `git add -A` would pick up:
 * - `--untracked-files=all`: files, not just `dir/`, so each untracked file can be re-read (and
 *   stat'ed for the cache key); `normal` would hide edits inside an untracked folder.
 * - `--no-renames`: one path per record (a staged rename is its delete + add; the index copy
 *   already holds both).
 * - `--ignore-submodules=dirty`: `add -A` only records a submodule's commit, never its dirty
 *   content, so only a moved submodule HEAD matters (and git skips the walk into it).
 * GIT_OPTIONAL_LOCKS=0 (exec-git) keeps status from refreshing the user's index.
 */
export async function readWorktreeStatus(repo: StatusTarget): Promise<WorktreeStatus> {
  const args = ['status', '--porcelain', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=dirty'];
  // The repository and index are named explicitly (no discovery, no inherited GIT_* variables):
  // inside `git commit -a` indexFile is the index git is building, for a peer its own index.
  const env = { GIT_DIR: repo.gitDir, GIT_WORK_TREE: repo.toplevel, GIT_INDEX_FILE: repo.indexFile };
  const { stdout } = await runGit(args, { cwd: repo.toplevel, env });
  return { raw: stdout, entries: parseStatus(stdout) };
}

export function parseStatus(stdout: Buffer): StatusEntry[] {
  const entries: StatusEntry[] = [];
  for (const field of stdout.toString('utf8').split('\0')) {
    if (field.length < 4 || field[2] !== ' ') continue;
    entries.push({ x: field[0]!, y: field[1]!, path: field.slice(3) });
  }
  return entries;
}

/**
 * Paths whose worktree side differs from the index (Y column, untracked `??`, unmerged): the only
 * ones `add -A` would change in a copy of the index. Index-only changes (`M `, `A `, `D `) are in
 * the copy already.
 */
export function worktreeSidePaths(entries: readonly StatusEntry[]): string[] {
  return [...new Set(entries.filter((entry) => entry.y !== ' ').map((entry) => entry.path))];
}

/** The status as the graph layer's worktree changes (modified / deleted / untracked). */
export function statusChanges(entries: readonly StatusEntry[]): StatusChanges {
  const modified: string[] = [];
  const deleted: string[] = [];
  const untracked: string[] = [];
  for (const { x, y, path } of entries) {
    if (x === '?' && y === '?') untracked.push(path);
    else if (y === 'D') deleted.push(path);
    else if (y !== ' ') modified.push(path);
  }
  return { modified, deleted, untracked };
}
