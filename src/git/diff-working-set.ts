import type { WorkingSet, WorkingSetFile } from '../traffic/working-set.js';
import { runGit } from './exec-git.js';
import { rememberRawChanges } from './raw-changes.js';
import { parseUnifiedDiff } from './parse-unified-diff.js';

export interface DiffOptions {
  /** Files to leave out (lockfiles, generated files); tested on both paths of a rename. */
  readonly ignore?: (path: string) => boolean;
  readonly timeoutMs?: number;
}

export interface DiffWorkingSet extends WorkingSet {
  readonly base: string;
  /** The patch could not be matched to the file list; every file counted as a whole-file edit. */
  readonly unparsed: boolean;
  /**
   * Paths of the entries `ignore` left out (both paths of a rename), when there were any: what the
   * same line's diff from an older base can still pair with a kept path (src/traffic/every-pair.ts).
   */
  readonly ignoredPaths?: readonly string[];
}

/**
 * The changes of `target` against `base` in base coordinates, from ONE git process.
 * `diff-tree` (plumbing) rather than `git diff`: it ignores the user's porcelain diff config
 * (`diff.relative`, `diff.algorithm`, `diff.renames`, external drivers), so the hunks are the ones
 * git itself would use. `-M50%` pairs renames; `--no-textconv` keeps hunks in real file lines.
 * Both arguments must be commits or trees (a snapshot commit carries uncommitted work).
 */
/** One flag set for the single and the batched diff, so both cut hunks exactly alike. */
const HUNK_FLAGS = [
  '-r',
  '--raw',
  '--patch',
  '-z',
  '--unified=0',
  '-M50%',
  '--no-abbrev',
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--ignore-submodules=none',
];

export async function diffWorkingSet(cwd: string, base: string, target: string, options: DiffOptions = {}): Promise<DiffWorkingSet> {
  const args = ['diff-tree', ...HUNK_FLAGS, '--no-commit-id', '--end-of-options', base, target, '--'];
  const { stdout } = await runGit(args, { cwd, timeoutMs: options.timeoutMs });
  const output = stdout.toString('utf8');
  const parsed = parseUnifiedDiff(output);
  if (!parsed.unparsed) rememberRawChanges({ base, target }, rawFields(output));
  return { base, ...filterIgnored(parsed.files, options.ignore), unparsed: parsed.unparsed };
}

export interface DiffRequest {
  /** Full commit ids (diff-tree --stdin takes object ids, not revision names). */
  readonly base: string;
  readonly target: string;
}

export const diffKey = (request: DiffRequest): string => `${request.base} ${request.target}`;

/**
 * Many diffs from ONE git process: `diff-tree --stdin` reads `<target> <base>` lines (the first id
 * is "the commit", the rest its "parents", so the diff runs base → target). `--always` prints the
 * `<target>\0` header even for an empty diff, which is how the output is cut back into one chunk
 * per request: a chunk starts at the expected header, right after the previous chunk's final
 * newline (patch text has no NUL, so a NUL-terminated id there can only be a header).
 */
export async function diffWorkingSets(cwd: string, requests: readonly DiffRequest[], options: DiffOptions = {}): Promise<Map<string, DiffWorkingSet>> {
  const unique = [...new Map(requests.map((request) => [diffKey(request), request])).values()];
  if (unique.length === 0) return new Map();
  // Many diffs (a beacon fold of the busiest area: 500) in two halves side by side: one process's
  // time grows with its lines, and the two halves together cost what the whole did (measured:
  // docs/decisions/beacon-areas.md, "The busiest pusher, cold"). Each half is cut back as before.
  const halves = unique.length >= SPLIT_AT ? [unique.slice(0, unique.length >> 1), unique.slice(unique.length >> 1)] : [unique];
  const parts = await Promise.allSettled(halves.map((half) => diffInOneProcess(cwd, half, options)));
  const results = new Map<string, DiffWorkingSet>();
  for (const part of parts) {
    if (part.status === 'rejected') throw part.reason;
    for (const [key, diff] of part.value) results.set(key, diff);
  }
  return results;
}

/** From this many diffs on, diffWorkingSets runs two processes. */
export const SPLIT_AT = 64;

async function diffInOneProcess(cwd: string, unique: readonly DiffRequest[], options: DiffOptions): Promise<Map<string, DiffWorkingSet>> {
  const results = new Map<string, DiffWorkingSet>();
  const args = ['diff-tree', '--stdin', '--always', ...HUNK_FLAGS];
  const input = unique.map((request) => `${request.target} ${request.base}\n`).join('');
  const { stdout } = await runGit(args, { cwd, input, timeoutMs: options.timeoutMs });
  const output = stdout.toString('utf8');
  let position = 0;
  unique.forEach((request, index) => {
    const header = `${request.target}\0`;
    const start = output.startsWith(header, position) ? position + header.length : -1;
    const next = unique[index + 1];
    const end = start < 0 ? -1 : next === undefined ? output.length : findHeader(output, `${next.target}\0`, start);
    if (start < 0 || end < 0) {
      results.set(diffKey(request), { base: request.base, files: [], unparsed: true });
      return;
    }
    const chunk = output.slice(start, end);
    const parsed = parseUnifiedDiff(chunk);
    results.set(diffKey(request), { base: request.base, ...filterIgnored(parsed.files, options.ignore), unparsed: parsed.unparsed });
    if (!parsed.unparsed) rememberRawChanges(request, rawFields(chunk));
    position = end;
  });
  return results;
}

/** The NUL-separated fields of a chunk's `--raw` records, up to where its patch begins. */
function rawFields(chunk: string): string[] {
  const patch = chunk.indexOf('\0\0');
  return (patch < 0 ? chunk : chunk.slice(0, patch)).split('\0');
}

function findHeader(output: string, header: string, from: number): number {
  for (let at = output.indexOf(header, from); at >= 0; at = output.indexOf(header, at + 1)) {
    if (at === from || output[at - 1] === '\n') return at;
  }
  return -1;
}

/** A diff's files as `diffWorkingSet` with `ignore` keeps them: for a caller holding the same diff read without it. */
export function keptByIgnore(files: readonly WorkingSetFile[], ignore: ((path: string) => boolean) | undefined): readonly WorkingSetFile[] {
  return ignore ? filterIgnored([...files], ignore).files : files;
}

function filterIgnored(files: WorkingSetFile[], ignore: ((path: string) => boolean) | undefined): { files: WorkingSetFile[]; ignoredPaths?: string[] } {
  if (!ignore) return { files };
  const kept: WorkingSetFile[] = [];
  const ignored: string[] = [];
  for (const entry of files) {
    if (ignore(entry.file) && ignore(entry.path ?? entry.file))
      ignored.push(entry.file, ...(entry.path !== undefined && entry.path !== entry.file ? [entry.path] : []));
    else kept.push(entry);
  }
  return ignored.length > 0 ? { files: kept, ignoredPaths: ignored } : { files: kept };
}

/** Paths (side paths) that differ between two commits: which files a snapshot adds on top of HEAD. */
export async function changedPaths(cwd: string, from: string, to: string): Promise<Set<string>> {
  const { stdout } = await runGit(['diff-tree', '-r', '--name-only', '-z', '--no-renames', '--end-of-options', from, to, '--'], { cwd });
  const fields = stdout.toString('utf8').split('\0');
  return new Set(fields.filter((field) => field !== ''));
}

/**
 * `changedPaths` for many (from, to) pairs in ONE `diff-tree --stdin` process: each `<to> <from>`
 * line prints `<to>\0` (always, `--always`) then its paths. Requests are read back in order; a
 * chunk ends where the next request's header is, so a path spelled like a commit id cannot cut it
 * early unless it is exactly the next target's id. Keyed by `to` (a snapshot commit is unique).
 */
export async function changedPathsBatch(cwd: string, requests: readonly { readonly from: string; readonly to: string }[]): Promise<Map<string, string[]>> {
  const results = new Map<string, string[]>();
  // Two clean-equivalent worktrees can make the same snapshot commit (same tree, parent, second).
  const unique = [...new Map(requests.map((request) => [request.to, request])).values()];
  if (unique.length === 0) return results;
  const input = unique.map((request) => `${request.to} ${request.from}\n`).join('');
  const { stdout } = await runGit(['diff-tree', '--stdin', '--always', '-r', '--name-only', '-z', '--no-renames'], { cwd, input });
  const fields = stdout.toString('utf8').split('\0');
  let at = 0;
  unique.forEach((request, index) => {
    if (fields[at] !== request.to) throw new Error(`diff-tree --stdin: expected ${request.to}, got ${fields[at] ?? 'end of output'}`);
    at++;
    const next = unique[index + 1]?.to;
    const paths: string[] = [];
    while (at < fields.length && fields[at] !== '' && fields[at] !== next) paths.push(fields[at++]!);
    if (fields[at] === '' && next !== undefined) at++;
    results.set(request.to, paths);
  });
  return results;
}
