import type { LineRange } from './types.js';

/**
 * Interval math on line ranges. Everything works on interval endpoints, never on sets of line
 * numbers, so a range [1, 5_000_000] costs the same as [1, 1]. Two representations:
 *
 * - slots (for the overlap coefficient): inclusive lines [s, e] become the real interval
 *   [s, e + 1) of length e − s + 1; an insertion point [s, s − 1] (no width, located between
 *   lines s − 1 and s) becomes the unit slot [s − ½, s + ½) centred on its position, so it
 *   overlaps an edit around it and two insertions at the same point overlap fully.
 * - spans (for git's touching rule and gaps): git's half-open [s, e + 1); an insertion is [s, s).
 *   Two spans collide the way git's merge sees it when a.start <= b.end && b.start <= a.end.
 */
export type Interval = readonly [lo: number, hi: number];

/** Inclusive range → its start and exclusive end; an end before the start is an insertion at start. */
function halfOpen([start, end]: LineRange): Interval {
  return [start, Math.max(start, end + 1)];
}

function sortedByStart(intervals: Interval[]): Interval[] {
  return intervals.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
}

/** Sorted, merged union. Intervals that touch (next.lo <= current.hi) merge into one. */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = sortedByStart(intervals.filter(([lo, hi]) => Number.isFinite(lo) && Number.isFinite(hi)).slice());
  const merged: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && lo <= last[1]) last[1] = Math.max(last[1], hi);
    else merged.push([lo, hi]);
  }
  return merged;
}

/** Ranges → merged slots for the overlap coefficient (see the module comment). */
export function toSlots(ranges: readonly LineRange[]): Interval[] {
  return mergeIntervals(
    ranges.map((range): Interval => {
      const [lo, hi] = halfOpen(range);
      return hi > lo ? [lo, hi] : [lo - 0.5, lo + 0.5];
    }),
  );
}

/** Ranges → merged git spans (half-open; insertions keep zero width). */
export function toSpans(ranges: readonly LineRange[]): Interval[] {
  return mergeIntervals(ranges.map(halfOpen));
}

/** Total length of merged intervals. */
export function totalLength(merged: readonly Interval[]): number {
  let sum = 0;
  for (const [lo, hi] of merged) sum += hi - lo;
  return sum;
}

/** Length of the intersection of two merged unions (two-pointer sweep, O(n + m)). */
export function intersectionLength(a: readonly Interval[], b: readonly Interval[]): number {
  let i = 0;
  let j = 0;
  let sum = 0;
  while (i < a.length && j < b.length) {
    const [alo, ahi] = a[i]!;
    const [blo, bhi] = b[j]!;
    const lo = Math.max(alo, blo);
    const hi = Math.min(ahi, bhi);
    if (hi > lo) sum += hi - lo;
    if (ahi < bhi) i++;
    else j++;
  }
  return sum;
}

/** Overlap coefficient |A ∩ B| / min(|A|, |B|) of two merged slot unions; 0 when either is empty. */
export function overlapCoefficient(a: readonly Interval[], b: readonly Interval[]): number {
  const smaller = Math.min(totalLength(a), totalLength(b));
  if (smaller <= 0) return 0;
  return Math.min(1, intersectionLength(a, b) / smaller);
}

/** git's rule on merged spans: some a, b with a.lo <= b.hi && b.lo <= a.hi (overlapping or touching). */
export function spansTouch(a: readonly Interval[], b: readonly Interval[]): boolean {
  return gapBetween(a, b) === 0;
}

/**
 * Lines strictly between the nearest spans of the two sides: 0 when they overlap or touch,
 * Infinity when either side is empty. Line 5 vs line 7 → 1 (line 6 lies between).
 */
export function gapBetween(a: readonly Interval[], b: readonly Interval[]): number {
  let i = 0;
  let j = 0;
  let best = Infinity;
  while (i < a.length && j < b.length) {
    const [alo, ahi] = a[i]!;
    const [blo, bhi] = b[j]!;
    const gap = Math.max(0, Math.max(alo, blo) - Math.min(ahi, bhi));
    if (gap < best) best = gap;
    if (best === 0) return 0;
    if (ahi < bhi) i++;
    else j++;
  }
  return best;
}
