/**
 * File names short enough for a badge on the picture. The full path is in the details panel; the
 * badge must still say which file, so the file name is always kept and the folders are cut from
 * the middle: `packages/…/src/general.ts`. Paths are untrusted (a peer's commits): the result is
 * only ever put in the page as text (textContent), and the page's data was already cleaned of
 * control and bidi characters (src/report/sanitize-text.ts).
 */
import type { Link } from '../../engine/types.js';

export const BADGE_PATH_CHARS = 36;
/** Files named on one badge; more are counted (`+3 more`). */
export const BADGE_FILES = 2;

/** `path` in at most `max` characters (code points): first folder, an ellipsis, as much of the end as fits. */
export function shortPath(path: string, max = BADGE_PATH_CHARS): string {
  const chars = [...path];
  if (chars.length <= max) return path;
  const parts = path.split('/');
  const name = parts.pop() ?? '';
  if ([...name].length + 2 > max) return middleEllipsis(name, max);
  const head = parts.length > 0 ? `${parts[0]}/` : '';
  let tail = name;
  // Whole folders from the end while they fit beside the first one.
  for (let i = parts.length - 1; i >= 1; i--) {
    const longer = `${parts[i]}/${tail}`;
    if ([...head].length + 2 + [...longer].length > max) break;
    tail = longer;
  }
  const withHead = `${head}…/${tail}`;
  return [...withHead].length <= max ? withHead : `…/${tail}`;
}

function middleEllipsis(text: string, max: number): string {
  const chars = [...text];
  const keep = Math.max(1, max - 1);
  const front = Math.ceil(keep / 2);
  return `${chars.slice(0, front).join('')}…${chars.slice(chars.length - (keep - front)).join('')}`;
}

/** The files a link's two agents both touch, most overlapping first, as a badge names them. */
export function badgeFiles(link: Link): { names: string[]; more: number } {
  const files = [...link.sharedFiles].sort((x, y) => y.overlap - x.overlap || (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  return { names: files.slice(0, BADGE_FILES).map((file) => shortPath(file.path)), more: Math.max(0, files.length - BADGE_FILES) };
}
