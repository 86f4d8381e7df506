/**
 * The intent store: files this worktree's agent declared as about to be touched (`intent add`).
 * Per worktree (`<git-dir>/airspace/intent.json`), carried in the beacon and scored as whole-file
 * entries, so two agents learn they are converging before either has edited anything.
 */
import { isAbsolute, posix, relative, sep } from 'node:path';
import { AirspaceError } from '../errors.js';
import { git } from '../git/exec-git.js';
import { gitMessages } from '../messages/git.js';
import { repoPathProblem } from '../beacon/safe-repo-path.js';
import { intentMessages } from '../messages/intent.js';
import { readJsonFile, updateJsonFile } from './json-file.js';
import { stateFile } from './state-dirs.js';

export const MAX_INTENT_PATHS = 500;
const FILE = 'intent.json';
const MAX_FILE_BYTES = 1024 * 1024;

interface IntentFile {
  readonly version: 1;
  readonly paths: string[];
  readonly updatedAt: number;
}

interface Location {
  readonly toplevel: string;
  readonly prefix: string;
  readonly gitDir: string;
}

async function locate(cwd: string): Promise<Location> {
  const out = await git(['rev-parse', '--show-toplevel', '--show-prefix', '--path-format=absolute', '--git-dir'], { cwd });
  const [toplevel = '', prefix = '', gitDir = ''] = out.split('\n');
  if (!toplevel || !gitDir) throw new AirspaceError('git', 'no-worktree', gitMessages.intentNeedsWorktree);
  return { toplevel, prefix, gitDir };
}

/**
 * A path as the user typed it (relative to `cwd`, or absolute) → a repo-relative POSIX path.
 * Throws a usage error for anything outside the worktree or otherwise unsafe.
 */
export function normalizeIntentPath(input: string, location: Pick<Location, 'toplevel' | 'prefix'>): string {
  let path: string;
  if (isAbsolute(input)) path = relative(location.toplevel, input).split(sep).join('/');
  else path = posix.normalize(`${location.prefix}${input}`);
  path = path.replace(/^\.\//, '').replace(/\/+$/, '');
  if (path === '..' || path.startsWith('../'))
    throw new AirspaceError('usage', 'intent-path-outside', intentMessages.outsideWorktree(input, location.toplevel));
  const problem = repoPathProblem(path);
  if (problem !== null || path === '.' || path === '')
    throw new AirspaceError('usage', 'intent-path-invalid', intentMessages.notAFile(input, problem ?? 'dot-segment'));
  return path;
}

function readPaths(value: unknown): string[] {
  const paths = (value as Partial<IntentFile> | null)?.paths;
  if (!Array.isArray(paths)) return [];
  return paths.filter((p): p is string => typeof p === 'string' && repoPathProblem(p) === null).slice(-MAX_INTENT_PATHS);
}

/**
 * Adds paths (deduplicated, newest last); returns the whole list. More than 500 in all is refused
 * with nothing added, rather than silently dropping the oldest (the user would not know which).
 */
export async function addIntent(cwd: string, paths: readonly string[], now = Date.now()): Promise<string[]> {
  const location = await locate(cwd);
  const added = paths.map((p) => normalizeIntentPath(p, location));
  const next = await updateJsonFile(stateFile(location.gitDir, FILE), MAX_FILE_BYTES, (current): IntentFile => {
    const kept = readPaths(current).filter((p) => !added.includes(p));
    const merged = [...kept];
    for (const p of added) if (!merged.includes(p)) merged.push(p);
    if (merged.length > MAX_INTENT_PATHS)
      throw new AirspaceError('usage', 'intent-too-many', intentMessages.tooMany(kept.length, merged.length - kept.length, MAX_INTENT_PATHS));
    return { version: 1, paths: merged, updatedAt: now };
  });
  return next.paths;
}

export async function listIntent(cwd: string): Promise<string[]> {
  const { gitDir } = await locate(cwd);
  return listIntentIn(gitDir);
}

/** The intent of the worktree whose git dir is `gitDir` (a sibling worktree's, read directly). */
export async function listIntentIn(gitDir: string): Promise<string[]> {
  return readPaths(await readJsonFile(stateFile(gitDir, FILE), MAX_FILE_BYTES));
}

/** Removes the given paths, or all of them when `paths` is omitted; returns what is left. */
export async function clearIntent(cwd: string, paths?: readonly string[], now = Date.now()): Promise<string[]> {
  const location = await locate(cwd);
  const removed = paths?.map((p) => normalizeIntentPath(p, location));
  const next = await updateJsonFile(
    stateFile(location.gitDir, FILE),
    MAX_FILE_BYTES,
    (current): IntentFile => ({
      version: 1,
      paths: removed ? readPaths(current).filter((p) => !removed.includes(p)) : [],
      updatedAt: now,
    }),
  );
  return next.paths;
}
