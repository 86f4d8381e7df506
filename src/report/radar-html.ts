/**
 * The radar page as ONE self-contained HTML file: the bundled three.js client and its CSS are
 * inlined, the scans travel as JSON in a `<script type="application/json">` block. Nothing is
 * fetched at view time (a CSP meta tag enforces it), except `/scan.json` from the page's own
 * origin when the radar server asks the page to poll.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ScanResult } from '../engine/types.js';
import { AirspaceError } from '../errors.js';
import { radarErrors, radarPageText } from '../messages/agent-views.js';
import { sanitizeJson } from './sanitize-text.js';

/** One step of a story (or one live scan): what the radar draws at one moment. */
export interface RadarFrame {
  readonly title: string;
  /** When the scan was taken: epoch ms or an ISO date. */
  readonly at: number | string;
  readonly scan: ScanResult;
  readonly notes?: readonly string[];
  /** The agent of the worktree the radar was run in (drawn as "you"); absent or null: none. */
  readonly ownship?: string | null;
}

export interface RadarHtmlOptions {
  /** The page title; defaults to the wording in src/messages/agent-views.ts. */
  readonly title?: string;
  /** Set by the radar server: the page polls this same-origin path for the latest scan. */
  readonly poll?: { readonly path: string; readonly intervalMs: number };
}

/** What the page reads from its JSON block. */
export interface RadarPageData {
  readonly version: 1;
  readonly title: string;
  readonly frames: readonly RadarFrame[];
  readonly poll: { readonly path: string; readonly intervalMs: number } | null;
}

/** The client (src/report/radar-client/main.ts) reads its data from this element id. */
const DATA_ELEMENT_ID = 'airspace-radar-data';

export function renderRadarHtml(frames: readonly RadarFrame[] | RadarFrame, options: RadarHtmlOptions = {}): string {
  const list: readonly RadarFrame[] = Array.isArray(frames) ? frames : [frames as RadarFrame];
  if (list.length === 0) throw new AirspaceError('usage', 'radar-no-frames', radarErrors.noFrames());
  const { js, css } = readClientBundle();
  const title = options.title ?? radarPageText.heading;
  const data: RadarPageData = { version: 1, title, frames: list, poll: options.poll ?? null };
  // 'unsafe-inline' is the point of a single-file page; connect-src 'self' only serves the live poll.
  const csp = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; connect-src 'self'";
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtmlText(title)}</title>`,
    `<style>${escapeRawText(css, 'style')}</style>`,
    '</head>',
    '<body>',
    `<script type="application/json" id="${DATA_ELEMENT_ID}">${serializeJsonForScript(sanitizeJson(data))}</script>`,
    `<script>${escapeRawText(js, 'script')}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * JSON inside a script element: the HTML parser ends the element at the first `</script`, and
 * `<!--` switches it into an escaped state, so every `<` is written as `\u003c` (JSON.parse reads
 * it back unchanged). U+2028/2029 are escaped too, so the text stays valid if ever read as JS.
 */
export function serializeJsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function escapeHtmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * Our own bundle must not end its element early. In minified JS `</script` can only occur inside a
 * string, template or regex literal, where `<\/` means the same; in CSS `<\/` is equally inert.
 */
function escapeRawText(text: string, element: 'script' | 'style'): string {
  return text.replace(new RegExp(`</(${element})`, 'gi'), '<\\/$1');
}

interface ClientBundle {
  readonly js: string;
  readonly css: string;
}

let cached: ClientBundle | undefined;

/**
 * The bundle sits next to the compiled module (dist/report/). When this module runs from source
 * (tests through vitest), the built copy in dist/report/ is used.
 */
function readClientBundle(): ClientBundle {
  if (cached) return cached;
  const candidates = [new URL('./radar-client.js', import.meta.url), new URL('../../dist/report/radar-client.js', import.meta.url)];
  const tried = candidates.map((url) => fileURLToPath(url));
  const jsPath = tried.find((path) => existsSync(path));
  if (!jsPath) throw new AirspaceError('environment', 'radar-bundle-missing', radarErrors.bundleMissing(tried), { tried });
  const cssPath = jsPath.replace(/\.js$/, '.css');
  cached = { js: readFileSync(jsPath, 'utf8'), css: existsSync(cssPath) ? readFileSync(cssPath, 'utf8') : '' };
  return cached;
}
