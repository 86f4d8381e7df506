/**
 * Terminal-safe text for strings we did not write: agent ids, paths, notes and commit subjects from
 * beacons, inboxes and peer branches. A peer controls those bytes, and a raw ESC or OSC sequence
 * printed by a git hook can rewrite the user's terminal title, fake output, hide text or (with
 * OSC 8/52) plant links and clipboard content. Bidi overrides can make a path read as another
 * (the "Trojan Source" trick). Every such code point is made visible (an ASCII escape) before it
 * leaves the process, on every output path: text, `--json`, `watch --json`, MCP, the radar.
 */

import { moreItemsText } from '../messages/transponder.js';

export interface SanitizeOptions {
  /** Maximum length in code points of the result (an ellipsis marks the cut). Default 200. */
  readonly maxLength?: number;
  /** Keep line feeds (multi-line notes). Default false. */
  readonly allowNewlines?: boolean;
  /**
   * Keep tabs (a peer's diff lines: the hunk read or applied must be the peer's bytes). A tab moves
   * the cursor and rewrites nothing, so it is safe in a terminal; by default it becomes a space, as
   * in ids, paths and subjects printed in one line. Default false.
   */
  readonly allowTabs?: boolean;
}

const DEFAULT_MAX = 200;

/**
 * Every code point a peer could use to act on a terminal or to make one name look like another:
 * C0 and C1 controls (ESC starts every escape sequence; U+009B is a CSI, U+009D an OSC on some
 * terminals), format characters (bidi embeddings, overrides, isolates and marks, zero-width
 * space/joiners, word joiner, BOM, soft hyphen, tag characters), line and paragraph separators,
 * spaces other than U+0020, fillers that render as nothing, and lone surrogates.
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Zs}\u115f\u1160\u3164\uffa0]|\u034f|\u17b4|\u17b5/gu;

export function sanitizeText(input: unknown, options: SanitizeOptions = {}): string {
  const maxLength = Math.max(1, options.maxLength ?? DEFAULT_MAX);
  let text = typeof input === 'string' ? input : input === undefined || input === null ? '' : String(input);
  // Cap the work on hostile megabyte strings before running the regular expressions over them.
  if (text.length > maxLength * 8 + 1024) text = text.slice(0, maxLength * 8 + 1024);
  return truncate(stripUnsafe(text, options.allowNewlines === true, options.allowTabs === true), maxLength);
}

/**
 * An unsafe code point shown as a visible escape (`\u200b`, `\u001b`, `\u{e0041}`) instead of
 * being dropped: removing it would make `admin` and `ad\u200bmin` — two different names — print
 * the same, and the user could not tell a peer from its impostor. The escape is plain ASCII, so
 * what follows an ESC prints as inert text (`\u001b]0;title\u0007`), never as a sequence.
 */
function visibleEscape(char: string): string {
  const code = char.codePointAt(0)!;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * The one rule every output path applies (text and JSON alike); no length cap. Line breaks become
 * one `\n` (or a space when the text must stay on one line); tabs a space, except in JSON, which
 * escapes them itself; everything else unsafe a visible escape.
 */
function stripUnsafe(input: string, allowNewlines: boolean, keepTabs = false): string {
  let text = input.replace(/\r\n?/g, '\n');
  if (!allowNewlines) text = text.replace(/\n/g, ' ');
  if (!keepTabs) text = text.replace(/\t/g, ' ');
  return text.replace(UNSAFE, (char) => (char === '\n' || char === '\t' || char === ' ' ? char : visibleEscape(char)));
}

/**
 * `--json` output with every string (keys too) cleaned like text: JSON.stringify escapes C0
 * controls but prints bidi overrides, C1 controls (U+009B is a CSI on some terminals) and
 * invisible characters raw, and a user piping `--json` to a terminal, or an agent quoting it,
 * sees them. Line feeds stay (JSON escapes them); nothing is cut, so the data keeps its shape.
 */
export function sanitizeJson(value: unknown): unknown {
  if (typeof value === 'string') return stripUnsafe(value, true, true);
  if (Array.isArray(value)) return value.map(sanitizeJson);
  if (value !== null && typeof value === 'object') {
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return sanitizeJson((value as { toJSON: () => unknown }).toJSON());
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [stripUnsafe(key, false), sanitizeJson(item)]));
  }
  return value;
}

/** What every `--json` output path prints: `sanitizeJson` then two-space JSON. */
export function jsonText(value: unknown): string {
  return JSON.stringify(sanitizeJson(value), null, 2);
}

/** One NDJSON line (`watch --json`), or JSON another program reads (MCP, the radar), cleaned the same way. */
export function jsonLine(value: unknown): string {
  return JSON.stringify(sanitizeJson(value));
}

/** Cuts on code points (never half a surrogate pair) and marks the cut. */
function truncate(text: string, maxLength: number): string {
  const points = Array.from(text);
  if (points.length <= maxLength) return text;
  return `${points.slice(0, maxLength - 1).join('')}…`;
}

/** Sanitizes each string of a list (paths, subjects), capping the list as well. */
export function sanitizeList(items: readonly unknown[], maxItems = 50, options: SanitizeOptions = {}): string[] {
  const shown = items.slice(0, maxItems).map((item) => sanitizeText(item, options));
  if (items.length > maxItems) shown.push(moreItemsText(items.length - maxItems));
  return shown;
}
