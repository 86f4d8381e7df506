import { describe, expect, it } from 'vitest';
import { baselineScores, coveredLength, overlapCoefficient, pairFacts, rangeGap, widenInsertions } from '../../../src/replay/baselines.js';
import type { WorkingSet } from '../../../src/traffic/working-set.js';

const ws = (files: WorkingSet['files']): WorkingSet => ({ base: null, files });

describe('half-open range helpers', () => {
  it('measures the union of half-open ranges; an insertion point has no width', () => {
    expect(
      coveredLength([
        [1, 5],
        [3, 8],
        [10, 10],
      ]),
    ).toBe(7);
  });
  it('overlap coefficient on intervals', () => {
    expect(overlapCoefficient([[1, 11]], [[6, 8]])).toBe(1);
    expect(overlapCoefficient([[1, 5]], [[3, 7]])).toBe(0.5);
    expect(overlapCoefficient([[1, 5]], [[5, 9]])).toBe(0); // touching is not overlapping
  });
  it('widens an insertion point to the two lines around it', () => {
    expect(
      widenInsertions([
        [5, 5],
        [7, 9],
      ]),
    ).toEqual([
      [4, 6],
      [7, 9],
    ]);
  });
  it("uses git's touching rule: a.start <= b.end && b.start <= a.end", () => {
    expect(rangeGap([[1, 5]], [[5, 9]])).toBe(0); // adjacent lines 4 and 5
    expect(rangeGap([[5, 5]], [[5, 6]])).toBe(0); // insertion before a changed line
    expect(rangeGap([[1, 5]], [[6, 9]])).toBe(1); // one untouched line (5) between them
    expect(
      rangeGap(
        [[40, 41]],
        [
          [1, 3],
          [100, 101],
        ],
      ),
    ).toBe(37);
  });
});

describe('baselineScores', () => {
  const a = ws([
    { file: 'x.js', status: 'M', ranges: [[10, 12]] },
    { file: 'y.js', status: 'M', ranges: [[1, 2]] },
    { file: 'img.png', status: 'M', whole: true, binary: true },
    { file: 'only-a.js', status: 'A', whole: true },
  ]);
  const b = ws([
    { file: 'x.js', status: 'M', ranges: [[62, 63]] },
    { file: 'y.js', status: 'M', ranges: [[2, 2]] },
    { file: 'img.png', status: 'M', whole: true, binary: true },
  ]);
  it('scores shared files, touching, gap and the ConE rule', () => {
    const facts = pairFacts(a, b);
    expect(facts.shared.map((s) => s.file)).toEqual(['x.js', 'y.js', 'img.png']);
    const s = baselineScores(facts);
    expect(s).toMatchObject({ anyShared: 1, sharedCount: 3, touching: 1, maxOverlap: 1, gap50: 1, cone: 1 });
    expect(facts.shared[0]!.gap).toBe(50);
  });
  it('gives zero everywhere when nothing is shared', () => {
    const s = baselineScores(pairFacts(a, ws([{ file: 'z.js', status: 'M', ranges: [[1, 2]] }])));
    expect(s).toEqual({ anyShared: 0, sharedCount: 0, maxOverlap: 0, touching: 0, gap50: 0, cone: 0 });
  });
  it('the ConE rule needs more than 2 shared files', () => {
    const two = baselineScores(pairFacts(ws(a.files.slice(0, 2)), ws(b.files.slice(0, 2))));
    expect(two.cone).toBe(0);
    expect(two.gap50).toBeCloseTo(1); // y.js: insertion at line 2 touches line 1
  });
});
