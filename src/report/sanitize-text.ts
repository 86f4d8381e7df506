/**
 * Terminal-safe text for strings we did not write: agent ids, paths, notes and commit subjects from
 * beacons, inboxes and peer branches. A peer controls those bytes, and a raw ESC or OSC sequence
 * printed by a git hook can rewrite the user's terminal title, fake output, hide text or (with
 * OSC 8/52) plant links and clipboard content. Bidi overrides can make a path read as another
 * (the "Trojan Source" trick). Everything such is removed or made visible before it is printed.
 */

import { moreItemsText } from '../messages/beacon.js';

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
 * ESC-introduced sequences: CSI `ESC [ … final`, OSC/DCS/SOS/PM/APC `ESC ] … (BEL | ESC \)`, and
 * two-byte `ESC x`. Also the 8-bit C1 introducers (U+009B CSI, U+009D OSC, U+0090 DCS …), which
 * some terminals honour when they arrive as UTF-8 code points.
 */
const STRING_SEQUENCE = /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?/g;
const CSI_SEQUENCE = /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?/g;
const ESC_PAIR = /\u001b[\u0020-\u007e]?/g;

/** Bidi embeddings, overrides and isolates, plus marks that reorder or hide text. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Zero-width and other invisible format characters that can disguise a path or id. */
const INVISIBLE = /[\u200b-\u200d\u2060-\u2064\ufeff\u00ad]/g;
/** C0 (minus LF, handled apart), DEL and C1 control characters. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;
const CONTROL_BUT_TAB = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** Line and paragraph separators act as newlines in some terminals and editors. */
const LINE_SEPARATORS = /[\u2028\u2029\u0085]/g;

/** Shown in place of a removed control character, so the user sees that something was there. */
const REPLACEMENT = '\ufffd';

export function sanitizeText(input: unknown, options: SanitizeOptions = {}): string {
  const maxLength = Math.max(1, options.maxLength ?? DEFAULT_MAX);
  let text = typeof input === 'string' ? input : input === undefined || input === null ? '' : String(input);
  // Cap the work on hostile megabyte strings before running the regular expressions over them.
  if (text.length > maxLength * 8 + 1024) text = text.slice(0, maxLength * 8 + 1024);
  return truncate(stripUnsafe(text, options.allowNewlines === true, options.allowTabs === true), maxLength);
}

/** The character classes every output path removes (text and JSON alike); no length cap. */
function stripUnsafe(input: string, allowNewlines: boolean, allowTabs = false): string {
  let text = input
    .replace(STRING_SEQUENCE, '')
    .replace(CSI_SEQUENCE, '')
    .replace(ESC_PAIR, '')
    .replace(BIDI, '')
    .replace(INVISIBLE, '')
    .replace(/\r\n?/g, '\n')
    .replace(LINE_SEPARATORS, '\n');
  if (!allowTabs) text = text.replace(/\t/g, ' ');
  if (!allowNewlines) text = text.replace(/\n/g, ' ');
  text = text.replace(allowTabs ? CONTROL_BUT_TAB : CONTROL, REPLACEMENT);
  // Lone surrogates print as garbage and break some terminals' width accounting.
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, REPLACEMENT);
}

/**
 * `--json` output with every string (keys too) cleaned like text: JSON.stringify escapes C0
 * controls but prints bidi overrides, C1 controls (U+009B is a CSI on some terminals) and
 * invisible characters raw, and a user piping `--json` to a terminal, or an agent quoting it,
 * sees them. Line feeds stay (JSON escapes them); nothing is cut, so the data keeps its shape.
 */
export function sanitizeJson(value: unknown): unknown {
  if (typeof value === 'string') return stripUnsafe(value, true);
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
