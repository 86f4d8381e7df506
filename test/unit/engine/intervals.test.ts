import { describe, expect, it } from 'vitest';
import { gapBetween, intersectionLength, overlapCoefficient, spansTouch, toSlots, toSpans, totalLength } from '../../../src/index.js';
import { int, rng } from './generate-airspace.js';

describe('interval math on line ranges', () => {
  it('merges and measures inclusive ranges', () => {
    expect(
      toSlots([
        [10, 12],
        [1, 3],
        [2, 5],
      ]),
    ).toEqual([
      [1, 6],
      [10, 13],
    ]);
    expect(
      totalLength(
        toSlots([
          [10, 12],
          [1, 3],
          [2, 5],
        ]),
      ),
    ).toBe(8); // lines 1-5 and 10-12
  });

  it('gives an insertion point a unit slot centred on its position', () => {
    // [5, 4] = insertion just before line 5, between lines 4 and 5.
    expect(toSlots([[5, 4]])).toEqual([[4.5, 5.5]]);
    expect(overlapCoefficient(toSlots([[5, 4]]), toSlots([[5, 4]]))).toBe(1); // same point
    expect(overlapCoefficient(toSlots([[5, 4]]), toSlots([[3, 8]]))).toBe(1); // inside an edit
    expect(overlapCoefficient(toSlots([[5, 4]]), toSlots([[5, 5]]))).toBe(0.5); // half on line 5
    expect(overlapCoefficient(toSlots([[5, 4]]), toSlots([[9, 8]]))).toBe(0);
  });

  it('computes the overlap coefficient |A∩B| / min(|A|,|B|)', () => {
    // A = 1..10 (10 lines), B = 6..8 (3 lines) inside it: 3/3 = 1 even though Jaccard is 0.3.
    expect(overlapCoefficient(toSlots([[1, 10]]), toSlots([[6, 8]]))).toBe(1);
    // A = 1..10, B = 8..13: |A∩B| = 3 (8,9,10), min(10, 6) = 6 → 0.5.
    expect(overlapCoefficient(toSlots([[1, 10]]), toSlots([[8, 13]]))).toBe(0.5);
    expect(
      intersectionLength(
        toSlots([
          [1, 10],
          [20, 29],
        ]),
        toSlots([[5, 24]]),
      ),
    ).toBe(11);
    expect(overlapCoefficient(toSlots([[1, 3]]), toSlots([[4, 6]]))).toBe(0);
  });

  it("applies git's touching rule in half-open coordinates", () => {
    expect(spansTouch(toSpans([[1, 3]]), toSpans([[4, 6]]))).toBe(true); // adjacent lines
    expect(spansTouch(toSpans([[1, 3]]), toSpans([[5, 6]]))).toBe(false); // line 4 between
    expect(spansTouch(toSpans([[4, 3]]), toSpans([[4, 6]]))).toBe(true); // insertion before a changed line
    expect(spansTouch(toSpans([[4, 3]]), toSpans([[1, 3]]))).toBe(true); // insertion after a changed line
    expect(spansTouch(toSpans([[5, 4]]), toSpans([[1, 3]]))).toBe(false);
  });

  it('measures the gap between the nearest ranges', () => {
    expect(gapBetween(toSpans([[5, 5]]), toSpans([[7, 7]]))).toBe(1);
    expect(
      gapBetween(
        toSpans([
          [1, 2],
          [100, 110],
        ]),
        toSpans([
          [50, 60],
          [130, 131],
        ]),
      ),
    ).toBe(19);
    expect(gapBetween(toSpans([[1, 3]]), toSpans([[4, 4]]))).toBe(0);
    expect(gapBetween(toSpans([[10, 9]]), toSpans([[20, 19]]))).toBe(10);
    expect(gapBetween(toSpans([]), toSpans([[1, 1]]))).toBe(Infinity);
  });

  it('represents a five-million-line range as one interval, whatever its length', () => {
    // Interval arithmetic never walks lines: the range stays one [start, end) pair. (How long the
    // calls take is measured by bench/timing.mjs, not asserted here.)
    const huge = toSlots([[1, 5_000_000]]);
    expect(huge).toHaveLength(1);
    expect(totalLength(huge)).toBe(5_000_000);
    // 20 lines 4_999_990..5_000_009, 11 of them inside the huge range.
    expect(overlapCoefficient(huge, toSlots([[4_999_990, 5_000_009]]))).toBeCloseTo(11 / 20, 12);
    expect(gapBetween(toSpans([[1, 5_000_000]]), toSpans([[5_000_010, 5_000_010]]))).toBe(9);
  });

  it('agrees with line-by-line set arithmetic on random small ranges', () => {
    const random = rng(7);
    const lines = (ranges: [number, number][]): Set<number> => {
      const set = new Set<number>();
      for (const [s, e] of ranges) for (let l = s; l <= e; l++) set.add(l);
      return set;
    };
    for (let round = 0; round < 500; round++) {
      const make = (): [number, number][] =>
        Array.from({ length: int(random, 1, 4) }, () => {
          const s = int(random, 1, 60);
          return [s, s + int(random, 0, 8)] as [number, number];
        });
      const a = make();
      const b = make();
      const A = lines(a);
      const B = lines(b);
      const common = [...A].filter((l) => B.has(l)).length;
      expect(overlapCoefficient(toSlots(a), toSlots(b))).toBeCloseTo(common / Math.min(A.size, B.size), 12);
      let gap = Infinity;
      let touch = false;
      for (const [as, ae] of a) {
        for (const [bs, be] of b) {
          const [x, y, u, v] = [as, ae + 1, bs, be + 1]; // half-open
          if (x <= v && u <= y) touch = true;
          gap = Math.min(gap, Math.max(0, Math.max(x, u) - Math.min(y, v)));
        }
      }
      expect(spansTouch(toSpans(a), toSpans(b))).toBe(touch);
      expect(gapBetween(toSpans(a), toSpans(b))).toBe(gap);
    }
  });
});
