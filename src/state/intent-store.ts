/**
 * The intent store: files this worktree's agent declared as about to be touched (`intent add`).
 * Per worktree (`<git-dir>/airspace/intent.json`), carried in the beacon and scored as whole-file
 * entries, so two agents learn they are converging before either has edited anything.
 *
 * An intent declared with a time to live (`intent add --ttl`, what the Claude Code hook does before
 * every edit) carries its expiry (`expiresAt[path]`, epoch ms) and is gone once it has passed: an
 * agent that tried an edit an hour ago is not converging on that file now. One declared without
 * (a person's `intent add`) stays until cleared; declaring it again sets or drops the expiry.
 */
import { isAbsolute, posix, relative, sep } from 'node:path';
import { AirspaceError } from '../errors.js';
import { git } from '../git/exec-git.js';
import { gitMessages } from '../messages/command-line.js';
import { repoPathProblem } from '../beacon/safe-repo-path.js';
import { intentMessages } from '../messages/transponder.js';
import { readJsonFile, updateJsonFile } from './json-file.js';
import { stateFile } from './state-dirs.js';

export const MAX_INTENT_PATHS = 500;
const FILE = 'intent.json';
const MAX_FILE_BYTES = 1024 * 1024;

interface IntentFile {
  readonly version: 1;
  readonly paths: string[];
  readonly updatedAt: number;
  /** Expiry of the paths declared with a time to live; absent for the others (older files: none). */
  readonly expiresAt?: Record<string, number>;
}

export interface AddedIntent {
  /** Every declared path after the add, newest last. */
  readonly paths: string[];
  /** The paths of this add as stored (repo-relative), in the order given. */
  readonly declared: string[];
  /** Those of them that were not declared (or had expired) before. */
  readonly added: string[];
}

/** Where a worktree's intent lives and how its paths are read: what `git rev-parse` says of the cwd. */
export interface IntentLocation {
  readonly toplevel: string;
  /** The cwd below the top level (`src/`), as `--show-prefix` prints it: '' at the top. */
  readonly prefix: string;
  readonly gitDir: string;
}

async function locate(cwd: string): Promise<IntentLocation> {
  const out = await git(['rev-parse', '--show-toplevel', '--show-prefix', '--path-format=absolute', '--git-dir'], { cwd });
  const [toplevel = '', prefix = '', gitDir = ''] = out.split('\n');
  if (!toplevel || !gitDir) throw new AirspaceError('git', 'no-worktree', gitMessages.intentNeedsWorktree);
  return { toplevel, prefix, gitDir };
}

/**
 * A path as the user typed it (relative to `cwd`, or absolute) → a repo-relative POSIX path.
 * Throws a usage error for anything outside the worktree or otherwise unsafe.
 */
export function normalizeIntentPath(input: string, location: Pick<IntentLocation, 'toplevel' | 'prefix'>): string {
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

interface Current {
  readonly paths: string[];
  /** A Map, not an object: a path may be named `__proto__`. */
  readonly expiresAt: ReadonlyMap<string, number>;
}

/** The live entries of a stored file: valid paths, expired ones dropped. */
function readCurrent(value: unknown, now: number): Current {
  const file = value as Partial<IntentFile> | null;
  const stored = file?.expiresAt;
  const expiry = (path: string): number | undefined => {
    const at = typeof stored === 'object' && stored !== null && Object.hasOwn(stored, path) ? stored[path] : undefined;
    return typeof at === 'number' && Number.isFinite(at) ? at : undefined;
  };
  const paths = Array.isArray(file?.paths) ? file.paths : [];
  const live = paths
    .filter((p): p is string => typeof p === 'string' && repoPathProblem(p) === null)
    .filter((p) => (expiry(p) ?? Number.POSITIVE_INFINITY) > now)
    .slice(-MAX_INTENT_PATHS);
  const expiresAt = new Map<string, number>();
  for (const p of live) {
    const at = expiry(p);
    if (at !== undefined) expiresAt.set(p, at);
  }
  return { paths: live, expiresAt };
}

function written(current: Current, now: number): IntentFile {
  // Object.fromEntries defines own properties: `__proto__` stays a key.
  return { version: 1, paths: current.paths, updatedAt: now, ...(current.expiresAt.size > 0 ? { expiresAt: Object.fromEntries(current.expiresAt) } : {}) };
}

export interface AddOptions {
  /** Time to live of the paths added, ms; absent: until cleared. */
  readonly ttlMs?: number;
}

/**
 * Adds paths (deduplicated, newest last); returns the whole list. More than 500 in all is refused
 * with nothing added, rather than silently dropping the oldest (the user would not know which).
 */
export async function addIntent(cwd: string, paths: readonly string[], now = Date.now(), options: AddOptions = {}): Promise<AddedIntent> {
  return addIntentAt(await locate(cwd), paths, now, options);
}

/** The same where the caller already asked git where the worktree is (the resident's edit question: the run's own `rev-parse`). */
export async function addIntentAt(location: IntentLocation, paths: readonly string[], now = Date.now(), options: AddOptions = {}): Promise<AddedIntent> {
  const declared = paths.map((p) => normalizeIntentPath(p, location));
  let added: string[] = [];
  const next = await updateJsonFile(stateFile(location.gitDir, FILE), MAX_FILE_BYTES, (value): IntentFile => {
    const current = readCurrent(value, now);
    added = declared.filter((p, i) => !current.paths.includes(p) && declared.indexOf(p) === i);
    const kept = current.paths.filter((p) => !declared.includes(p));
    const merged = [...kept];
    for (const p of declared) if (!merged.includes(p)) merged.push(p);
    if (merged.length > MAX_INTENT_PATHS)
      throw new AirspaceError('usage', 'intent-too-many', intentMessages.tooMany(kept.length, merged.length - kept.length, MAX_INTENT_PATHS));
    const expiresAt = new Map(current.expiresAt);
    for (const p of declared) {
      if (options.ttlMs === undefined) expiresAt.delete(p);
      else expiresAt.set(p, now + options.ttlMs);
    }
    return written({ paths: merged, expiresAt }, now);
  });
  return { paths: next.paths, declared, added };
}

export async function listIntent(cwd: string, now = Date.now()): Promise<string[]> {
  const { gitDir } = await locate(cwd);
  return listIntentIn(gitDir, now);
}

/** The live intent of the worktree whose git dir is `gitDir` (a sibling worktree's, read directly). */
export async function listIntentIn(gitDir: string, now = Date.now()): Promise<string[]> {
  return (await readIntentIn(gitDir, now)).paths;
}

/** The same with the expiry of each path declared with a time to live: what the beacon carries. */
export async function readIntentIn(gitDir: string, now = Date.now()): Promise<{ readonly paths: string[]; readonly expiresAt: ReadonlyMap<string, number> }> {
  return readCurrent(await readJsonFile(stateFile(gitDir, FILE), MAX_FILE_BYTES), now);
}

/** Removes the given paths, or all of them when `paths` is omitted; returns what is left. */
export async function clearIntent(cwd: string, paths?: readonly string[], now = Date.now()): Promise<string[]> {
  const location = await locate(cwd);
  const removed = paths?.map((p) => normalizeIntentPath(p, location));
  const next = await updateJsonFile(stateFile(location.gitDir, FILE), MAX_FILE_BYTES, (value): IntentFile => {
    const current = readCurrent(value, now);
    const left = removed ? current.paths.filter((p) => !removed.includes(p)) : [];
    const expiresAt = new Map([...current.expiresAt].filter(([p]) => left.includes(p)));
    return written({ paths: left, expiresAt }, now);
  });
  return next.paths;
}
