/** Small markdown helpers for the benchmark's result tables (strings only; the bench writes them). */
import type { Confusion } from '../../src/replay/metrics.js';

export function table(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const line = (cells: readonly (string | number)[]): string => `| ${cells.map(String).join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

/** 3 decimals; an undefined value (nothing flagged, one class absent) prints as a dash. */
export function num(value: number | undefined): string {
  return value === undefined || Number.isNaN(value) ? '—' : value.toFixed(3);
}

/** "precision / recall (flagged)". */
export function pr(c: Confusion | undefined): string {
  if (!c) return '—';
  return `${num(c.precision)} / ${num(c.recall)} (${c.flagged})`;
}
