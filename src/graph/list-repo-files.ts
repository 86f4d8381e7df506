import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitZ, runGit } from '../git/exec-git.js';
import { isResolutionConfigPath, isSourcePath } from './source-files.js';

/**
 * The working tree's source files and their content ids, in at most three git processes:
 * `ls-files -s` (the index's blob ids, no stat calls), `ls-files -t -m -d -o` (what differs from
 * the index, untracked files included) and one batched `hash-object --stdin-paths` for the dirty
 * ones. The ids key the graph cache: a file whose id did not change keeps its cached imports.
 */

/** Paths relative to the worktree's top level, as `git status --porcelain` prints them. */
export interface WorktreeChanges {
  /** Tracked files whose working-tree content may differ from the index. */
  readonly modified: readonly string[];
  /** Tracked files missing from the working tree. */
  readonly deleted: readonly string[];
  /** Untracked, not ignored files. */
  readonly untracked: readonly string[];
}

export interface RepoFiles {
  /** Source file (repo-relative, forward slashes) → id of its working-tree content. */
  readonly sources: Map<string, string>;
  /** tsconfig*.json / jsconfig.json → id of its working-tree content. */
  readonly configs: Map<string, string>;
}

const GITLINK = '160000';
const SYMLINK = '120000';

/** Reads the worktree status from git unless the caller already has it (the hook ran `git status`). */
export async function listRepoFiles(toplevel: string, known?: WorktreeChanges): Promise<RepoFiles> {
  const [staged, changes] = await Promise.all([
    runGit(['ls-files', '-s', '-z'], { cwd: toplevel }),
    known ? Promise.resolve(known) : readWorktreeChanges(toplevel),
  ]);
  const sources = new Map<string, string>();
  const configs = new Map<string, string>();
  const dirty = new Set<string>();
  for (const { mode, blob, stage, path } of parseStaged(staged.stdout)) {
    if (mode === GITLINK || mode === SYMLINK) continue;
    const target = pick(path, sources, configs);
    if (!target) continue;
    // An unmerged path has stages 1-3 and no single blob: its content is whatever is on disk.
    if (stage !== '0') dirty.add(path);
    target.set(path, blob);
  }
  for (const path of changes.deleted) {
    sources.delete(path);
    configs.delete(path);
    dirty.delete(path);
  }
  const deleted = new Set(changes.deleted);
  for (const path of [...changes.modified, ...changes.untracked]) {
    if (!deleted.has(path) && pick(path, sources, configs)) dirty.add(path);
  }
  const paths = [...dirty];
  const ids = await hashWorktreeFiles(toplevel, paths);
  paths.forEach((path, index) => {
    const target = pick(path, sources, configs);
    const id = ids[index];
    if (target && id) target.set(path, id);
    else target?.delete(path);
  });
  return { sources, configs };
}

/**
 * The byte offsets of each `<fields>\t<path>\0` record of a `-z` listing (`ls-files -s`, `ls-tree`).
 * Callers decode each field from the buffer on its own: slices of one large decoded string make
 * every later Map lookup of the path measurably slower (V8 sliced strings), and the warm path
 * does 40,000 of them on a 10,000-file repository.
 */
export function* nulRecords(stdout: Buffer): Generator<{ start: number; tab: number; end: number }> {
  let start = 0;
  while (start < stdout.length) {
    let end = stdout.indexOf(0, start);
    if (end < 0) end = stdout.length;
    const tab = stdout.indexOf(9, start);
    if (tab > start && tab < end) yield { start, tab, end };
    start = end + 1;
  }
}

/** `<mode> <blob> <stage>\t<path>\0` entries of `ls-files -s -z`. */
function* parseStaged(stdout: Buffer): Generator<{ mode: string; blob: string; stage: string; path: string }> {
  for (const { start, tab, end } of nulRecords(stdout)) {
    yield {
      mode: stdout.toString('latin1', start, start + 6),
      blob: stdout.toString('latin1', start + 7, tab - 2),
      stage: stdout.toString('latin1', tab - 1, tab),
      path: stdout.toString('utf8', tab + 1, end),
    };
  }
}

export async function readWorktreeChanges(toplevel: string): Promise<WorktreeChanges> {
  const fields = await gitZ(['ls-files', '-z', '-t', '-m', '-d', '-o', '--exclude-standard'], { cwd: toplevel });
  const modified: string[] = [];
  const deleted: string[] = [];
  const untracked: string[] = [];
  for (const field of fields) {
    const path = field.slice(2);
    if (!pickable(path)) continue;
    // A deleted file is listed twice: `C` (it differs) and `R` (it is gone).
    if (field.startsWith('R ')) deleted.push(path);
    else if (field.startsWith('C ')) modified.push(path);
    else if (field.startsWith('? ')) untracked.push(path);
  }
  return { modified, deleted, untracked };
}

function pickable(path: string): boolean {
  return isSourcePath(path) || isResolutionConfigPath(path);
}

function pick(path: string, sources: Map<string, string>, configs: Map<string, string>): Map<string, string> | undefined {
  if (isSourcePath(path)) return sources;
  if (isResolutionConfigPath(path)) return configs;
  return undefined;
}

/** Blob ids of working-tree files, `undefined` for a file that vanished meanwhile. */
async function hashWorktreeFiles(toplevel: string, paths: readonly string[]): Promise<(string | undefined)[]> {
  if (paths.length === 0) return [];
  // --stdin-paths is line-based: a path with a newline cannot go through it.
  const plain = paths.every((path) => !path.includes('\n'));
  if (plain) {
    const result = await runGit(['hash-object', '--stdin-paths'], { cwd: toplevel, input: `${paths.join('\n')}\n`, okCodes: [128] });
    const ids = result.stdout.toString('utf8').split('\n').filter(Boolean);
    if (result.code === 0 && ids.length === paths.length) return ids;
  }
  // Fallback (a file vanished, or an odd path): hash in-process. Without git's clean filters the
  // id may differ from `git add`'s; the only cost is one extra re-cruise of that file.
  return paths.map((path) => hashInProcess(join(toplevel, path)));
}

function hashInProcess(file: string): string | undefined {
  try {
    const content = readFileSync(file);
    return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
  } catch {
    return undefined;
  }
}
