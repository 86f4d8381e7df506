/**
 * DOM helpers of the radar page. Agent ids, file paths, notes and titles are untrusted strings
 * (they come from branch names and beacons on a shared remote): they only ever reach the page
 * through `textContent`, never through innerHTML.
 */

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Appends children (elements or plain text) to a parent and returns the parent. */
export function put<T extends HTMLElement>(parent: T, ...children: (Node | string | null | undefined)[]): T {
  for (const child of children) {
    if (child === null || child === undefined) continue;
    parent.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return parent;
}

export function formatRisk(value: number): string {
  return Number.isFinite(value) ? value.toFixed(2) : '–';
}

/** Line ranges in base coordinates; `end < start` is an insertion point before `start`. */
export function formatRanges(ranges: readonly (readonly [number, number])[] | undefined, wholeFile: string): string {
  if (!ranges || ranges.length === 0) return wholeFile;
  return ranges.map(([start, end]) => (end < start ? `^${start}` : start === end ? `${start}` : `${start}–${end}`)).join(', ');
}

export function formatTime(at: number | string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return String(at);
  return date
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
}
