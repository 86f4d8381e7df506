import { gapBetween, overlapCoefficient, spansTouch } from './intervals.js';
import type { PreparedAgent, Reading } from './prepare-agent.js';
import type { LineRange } from './types.js';

/** A file both agents touch, scored for the overlap and proximity channels. */
export interface SharedFileScore {
  readonly path: string;
  readonly rangesA: readonly LineRange[] | undefined;
  readonly rangesB: readonly LineRange[] | undefined;
  /** lineOverlap of the strongest reading pair (1 for a whole-file edit on either side). */
  readonly overlap: number;
  /** Lines between the nearest ranges (0 when overlapping, touching or whole-file). */
  readonly gap: number;
  /** max over readings of w^a · w^b · lineOverlap. */
  readonly overlapScore: number;
  /** max over readings of w^a · w^b · exp(−gap / proximityLines). */
  readonly proximityScore: number;
}

export interface SharedFileOptions {
  readonly adjacency: boolean;
  readonly proximityLines: number;
}

/** lineOverlap (eq. 3): whole-file ⇒ 1; with adjacency, git's touching rule ⇒ 1; else the overlap coefficient. */
export function lineOverlap(a: Reading, b: Reading, adjacency: boolean): number {
  if (a.slots === null || b.slots === null || a.spans === null || b.spans === null) return 1;
  if (adjacency && spansTouch(a.spans, b.spans)) return 1;
  return overlapCoefficient(a.slots, b.slots);
}

export function lineGap(a: Reading, b: Reading): number {
  if (a.spans === null || b.spans === null) return 0;
  return gapBetween(a.spans, b.spans);
}

function proximity(gap: number, lines: number): number {
  if (gap === 0) return 1;
  return lines > 0 ? Math.exp(-gap / lines) : 0;
}

/**
 * Files matched by base path (a rename's new path also matches), with both sides' readings
 * compared. Sorted by path; a pair of agents with no shared file gets an empty list.
 */
export function sharedFiles(a: PreparedAgent, b: PreparedAgent, options: SharedFileOptions): SharedFileScore[] {
  const result: SharedFileScore[] = [];
  for (const entryA of a.entries) {
    const matched = new Set<number>();
    for (const key of entryA.keys) for (const index of b.byKey.get(key) ?? []) matched.add(index);
    for (const index of [...matched].sort((x, y) => x - y)) {
      const entryB = b.entries[index]!;
      let overlap = 0;
      let gap = Infinity;
      let overlapScore = 0;
      let proximityScore = 0;
      for (const readingA of entryA.readings) {
        for (const readingB of entryB.readings) {
          const weight = readingA.weight * readingB.weight;
          const lo = lineOverlap(readingA, readingB, options.adjacency);
          const g = lineGap(readingA, readingB);
          overlap = Math.max(overlap, lo);
          gap = Math.min(gap, g);
          overlapScore = Math.max(overlapScore, weight * lo);
          proximityScore = Math.max(proximityScore, weight * proximity(g, options.proximityLines));
        }
      }
      result.push({
        path: entryA.path,
        rangesA: entryA.readings.find((r) => r.ranges !== null)?.ranges ?? undefined,
        rangesB: entryB.readings.find((r) => r.ranges !== null)?.ranges ?? undefined,
        overlap,
        gap,
        overlapScore,
        proximityScore,
      });
    }
  }
  return result;
}
