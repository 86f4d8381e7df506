import { AirspaceError } from '../errors.js';
import { runGit } from './exec-git.js';
import { baseRange } from './parse-unified-diff.js';

/**
 * One file's hunks, text included, between two commits: what a peer actually wrote. Read-only
 * plumbing (`diff-tree`, no porcelain config). The path is one literal pathspec
 * (GIT_LITERAL_PATHSPECS), so a peer's file named `*` or `:(glob)…` matches only itself; the
 * revisions must be full object ids, never names a peer could choose.
 */
export interface FileHunk {
  /**
   * Half-open base-coordinate range of the changed lines only (context excluded), as in working
   * sets: an insertion after line s is the empty range [s+1, s+1).
   */
  readonly range: readonly [number, number];
  /** The `@@ … @@` line as git printed it (function context included). */
  readonly header: string;
  /** Hunk body lines with their `+`, `-`, ` ` or `\` prefix, raw (sanitize before showing). */
  readonly lines: readonly string[];
}

export interface FileHunks {
  readonly hunks: readonly FileHunk[];
  readonly binary: boolean;
  /** The diff was larger than the cap and was not read. */
  readonly tooLarge: boolean;
}

const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const HUNK = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/;
const LITERAL = { GIT_LITERAL_PATHSPECS: '1' };

export async function fileHunks(cwd: string, base: string, target: string, path: string, options: { context: number; maxBytes: number }): Promise<FileHunks> {
  requireOids(base, target);
  const args = ['diff-tree', '-p', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', `--unified=${options.context}`, base, target, '--', path];
  try {
    const { stdout } = await runGit(args, { cwd, env: LITERAL, maxBytes: options.maxBytes });
    return parseFileHunks(stdout.toString('utf8'));
  } catch (error) {
    if (error instanceof AirspaceError && error.code === 'git-output-too-large') return { hunks: [], binary: false, tooLarge: true };
    throw error;
  }
}

/** The subjects of the commits in `base..tip` that touch `path`, newest first. */
export async function fileSubjects(cwd: string, base: string, tip: string, path: string, cap: number): Promise<string[]> {
  requireOids(base, tip);
  if (base === tip) return [];
  const { stdout } = await runGit(['log', '--no-merges', '--format=%s', `-n${cap}`, `${base}..${tip}`, '--', path], { cwd, env: LITERAL });
  return stdout
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '');
}

/** The patch of ONE file: hunk headers start hunks, every other line before the first is header noise. */
export function parseFileHunks(patch: string): FileHunks {
  const parsed: { start: number; header: string; lines: string[] }[] = [];
  let binary = false;
  for (const line of patch.split('\n')) {
    const match = HUNK.exec(line);
    if (match) parsed.push({ start: baseRange(Number(match[1]), match[2] === undefined ? 1 : Number(match[2]))[0], header: line, lines: [] });
    else if (parsed.length > 0 && /^[-+ \\]/.test(line)) parsed.at(-1)!.lines.push(line);
    else if (parsed.length === 0 && line.startsWith('Binary files ')) binary = true;
  }
  return { hunks: parsed.map((hunk) => ({ range: changedRange(hunk.start, hunk.lines), header: hunk.header, lines: hunk.lines })), binary, tooLarge: false };
}

/** Walks the body in base lines: context and removals advance, an addition sits before the current line. */
function changedRange(start: number, lines: readonly string[]): [number, number] {
  let at = start;
  let first = Number.POSITIVE_INFINITY;
  let end = 0;
  for (const line of lines) {
    if (line.startsWith(' ')) at++;
    else if (line.startsWith('-')) {
      first = Math.min(first, at);
      end = Math.max(end, at + 1);
      at++;
    } else if (line.startsWith('+')) {
      first = Math.min(first, at);
      end = Math.max(end, at);
    }
  }
  return first === Number.POSITIVE_INFINITY ? [start, start] : [first, Math.max(first, end)];
}

function requireOids(...ids: readonly string[]): void {
  const bad = ids.find((id) => !OID.test(id));
  if (bad !== undefined) throw new AirspaceError('internal', 'not-an-object-id', `not a full object id: ${bad.slice(0, 80)}`);
}
