/**
 * Is a string acceptable as a repository-relative path from an untrusted source (a beacon, an
 * inbox file, the user's `intent add`)? The paths are only compared and printed, never opened,
 * but a path that climbs out (`../`), is absolute, uses Windows separators or carries control or
 * bidi characters is either an attack on the terminal or a peer bug, so it never enters a scan.
 */

export type PathProblem = 'empty' | 'too-long' | 'absolute' | 'backslash' | 'nul' | 'control' | 'bidi' | 'dot-segment' | 'empty-segment' | 'git-dir';

export const MAX_PATH_LENGTH = 4096;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const BIDI_OR_INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;

/** Returns why `path` is unsafe, or null when it is a clean repo-relative POSIX path. */
export function repoPathProblem(path: string, maxLength = MAX_PATH_LENGTH): PathProblem | null {
  if (path.length === 0) return 'empty';
  if (path.length > maxLength) return 'too-long';
  if (path.includes('\0')) return 'nul';
  if (path.includes('\\')) return 'backslash';
  if (CONTROL.test(path)) return 'control';
  if (BIDI_OR_INVISIBLE.test(path)) return 'bidi';
  // `/etc/passwd`, `//server/share`, `C:/x`, `c:x` — anything a platform would anchor.
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.startsWith('~')) return 'absolute';
  for (const segment of path.split('/')) {
    if (segment === '') return 'empty-segment';
    if (segment === '.' || segment === '..') return 'dot-segment';
    if (segment.toLowerCase() === '.git') return 'git-dir';
  }
  return null;
}

export function isSafeRepoPath(path: unknown, maxLength = MAX_PATH_LENGTH): path is string {
  return typeof path === 'string' && repoPathProblem(path, maxLength) === null;
}

/**
 * What a name may not hold: controls (C0, DEL, C1), format characters (bidi marks, overrides and
 * isolates, zero-width space and joiners, word joiner, BOM, soft hyphen, tag characters), line and
 * paragraph separators, spaces other than U+0020, fillers that render as nothing, lone surrogates,
 * and the backslash (git refuses it in ref names; the output's visible escapes are `\uXXXX`, so a
 * name with one could read like another's escape).
 */
const NOT_IN_A_NAME = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Zs}\u115f\u1160\u3164\uffa0\\]|\u034f|\u17b4|\u17b5/u;

/**
 * An identifier (agent id, branch name) we may show, compare and rank: bounded, a visible name. A
 * name of only spaces, one with leading or trailing spaces, or one carrying invisible, control or
 * bidi characters is refused: such an id reads as nothing or as another agent's, and ids break
 * right-of-way ties, so `" "` would sort before every real agent (docs/decisions/beacons.md).
 */
export function isSafeLabel(text: unknown, maxLength: number): text is string {
  if (typeof text !== 'string' || text.length === 0 || text.length > maxLength) return false;
  const inner = text.replace(/ /g, '');
  return inner.length > 0 && text.trim() === text && !NOT_IN_A_NAME.test(inner);
}
