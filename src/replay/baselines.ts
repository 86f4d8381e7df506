/**
 * The baselines the engine must beat, computed from the same working sets (half-open `[s, e)`
 * base ranges, as git reports them). Each returns a score per pair; higher = more likely to
 * conflict. Binary predictors score 0/1.
 */
import type { WorkingSet, WorkingSetFile } from '../traffic/working-set.js';

type Range = readonly [number, number];

export interface SharedFileFacts {
  readonly file: string;
  /** Either side edits the whole file (added, deleted, binary, type change). */
  readonly whole: boolean;
  /** Overlap coefficient of the two sides' line intervals (1 for a whole-file edit). */
  readonly overlap: number;
  /** Git's rule on half-open ranges: `a.start <= b.end && b.start <= a.end` for some pair. */
  readonly touching: boolean;
  /** Lines between the nearest ranges of the two sides (0 = overlapping or touching). */
  readonly gap: number;
}

export interface PairFacts {
  readonly filesA: number;
  readonly filesB: number;
  readonly shared: readonly SharedFileFacts[];
}

const isWhole = (f: WorkingSetFile): boolean => f.whole === true || f.binary === true || f.ranges === undefined;

/** Total length of the union of half-open ranges. */
export function coveredLength(ranges: readonly Range[]): number {
  const sorted = [...ranges].filter(([s, e]) => e > s).sort((x, y) => x[0] - y[0]);
  let total = 0;
  let end = -Infinity;
  for (const [s, e] of sorted) {
    if (e <= end) continue;
    total += e - Math.max(s, end);
    end = e;
  }
  return total;
}

/**
 * An insertion point `[s, s)` has no width; for the overlap coefficient it stands for the two base
 * lines around it, `[s − 1, s + 1)`. This is the rule that reproduces the dataset README's
 * "max line-overlap coefficient" baseline (0.859 at both-active 0.5; counting insertions as
 * zero-width gives 0.783, because half the early edits are pure insertions).
 */
export function widenInsertions(ranges: readonly Range[]): Range[] {
  return ranges.map(([s, e]) => (e > s ? [s, e] : [Math.max(0, s - 1), s + 1]));
}

/** |A ∩ B| / min(|A|, |B|) on interval unions (half-open); 0 when either side has no width. */
export function overlapCoefficient(a: readonly Range[], b: readonly Range[]): number {
  const la = coveredLength(a);
  const lb = coveredLength(b);
  if (la === 0 || lb === 0) return 0;
  const intersections: Range[] = [];
  for (const [as, ae] of a) for (const [bs, be] of b) if (Math.max(as, bs) < Math.min(ae, be)) intersections.push([Math.max(as, bs), Math.min(ae, be)]);
  return coveredLength(intersections) / Math.min(la, lb);
}

/** Smallest line gap between any range of `a` and any of `b`; 0 when they overlap or touch. */
export function rangeGap(a: readonly Range[], b: readonly Range[]): number {
  let best = Infinity;
  for (const [as, ae] of a) for (const [bs, be] of b) best = Math.min(best, Math.max(0, bs - ae, as - be));
  return best;
}

export function pairFacts(sideA: WorkingSet, sideB: WorkingSet): PairFacts {
  const byFile = new Map(sideB.files.map((f) => [f.file, f]));
  const shared: SharedFileFacts[] = [];
  for (const fa of sideA.files) {
    const fb = byFile.get(fa.file);
    if (!fb) continue;
    if (isWhole(fa) || isWhole(fb)) {
      shared.push({ file: fa.file, whole: true, overlap: 1, touching: true, gap: 0 });
      continue;
    }
    const gap = rangeGap(fa.ranges!, fb.ranges!);
    shared.push({
      file: fa.file,
      whole: false,
      overlap: overlapCoefficient(widenInsertions(fa.ranges!), widenInsertions(fb.ranges!)),
      touching: gap === 0,
      gap,
    });
  }
  return { filesA: sideA.files.length, filesB: sideB.files.length, shared };
}

export type BaselineName = 'anyShared' | 'sharedCount' | 'maxOverlap' | 'touching' | 'gap50' | 'cone';

export const BASELINE_LABELS: Readonly<Record<BaselineName, string>> = {
  anyShared: 'any shared file',
  sharedCount: 'number of shared files',
  maxOverlap: 'max line-overlap coefficient',
  touching: 'overlapping-or-touching ranges',
  gap50: 'gap signal max exp(−gap/50)',
  cone: 'ConE rule (≥ 50 % of one side shared, > 2 shared)',
};

/** Every baseline's score for one pair. */
export function baselineScores(facts: PairFacts): Record<BaselineName, number> {
  const n = facts.shared.length;
  const smaller = Math.min(facts.filesA, facts.filesB);
  return {
    anyShared: n > 0 ? 1 : 0,
    sharedCount: n,
    maxOverlap: Math.max(0, ...facts.shared.map((s) => s.overlap)),
    touching: facts.shared.some((s) => s.touching) ? 1 : 0,
    gap50: Math.max(0, ...facts.shared.map((s) => Math.exp(-s.gap / 50))),
    cone: n > 2 && smaller > 0 && n >= 0.5 * smaller ? 1 : 0,
  };
}
