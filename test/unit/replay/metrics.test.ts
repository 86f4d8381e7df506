import { describe, expect, it } from 'vitest';
import { atThreshold, confusion, rocAuc } from '../../../src/replay/metrics.js';
import { pickRaThreshold, pickTaThreshold } from '../../../src/replay/thresholds.js';

describe('rocAuc', () => {
  it('is 1 for a perfect ranking and 0 for a reversed one', () => {
    expect(rocAuc([0.1, 0.2, 0.8, 0.9], [false, false, true, true])).toBe(1);
    expect(rocAuc([0.9, 0.8, 0.2, 0.1], [false, false, true, true])).toBe(0);
  });
  it('counts a tie between a positive and a negative as one half (average rank)', () => {
    expect(rocAuc([1, 1, 1, 1], [true, false, true, false])).toBe(0.5);
    // pairs (pos, neg): (0.5 vs 0.5 tie → ½), (0.5 vs 0.1 → 1), (0.9 vs both → 2) = 3.5 of 4
    expect(rocAuc([0.5, 0.9, 0.5, 0.1], [true, true, false, false])).toBeCloseTo(3.5 / 4, 12);
  });
  it('matches the Mann–Whitney count on an uneven example', () => {
    const scores = [0.3, 0.3, 0.7, 0.2, 0.9, 0.3];
    const labels = [true, false, true, false, false, true];
    let wins = 0;
    for (let i = 0; i < 6; i += 1)
      for (let j = 0; j < 6; j += 1) {
        if (labels[i] && !labels[j]) wins += scores[i]! > scores[j]! ? 1 : scores[i] === scores[j] ? 0.5 : 0;
      }
    expect(rocAuc(scores, labels)).toBeCloseTo(wins / 9, 12);
  });
  it('is NaN when one class is missing', () => {
    expect(rocAuc([0.1, 0.2], [true, true])).toBeNaN();
  });
});

describe('confusion', () => {
  it('computes precision and recall of a flag', () => {
    const c = confusion([true, true, false, true], [true, false, true, true]);
    expect(c).toMatchObject({ flagged: 3, truePositives: 2, positives: 3, total: 4 });
    expect(c.precision).toBeCloseTo(2 / 3);
    expect(c.recall).toBeCloseTo(2 / 3);
  });
  it('reports NaN precision when nothing is flagged', () => {
    expect(confusion([false, false], [true, false]).precision).toBeNaN();
  });
  it('flags score ≥ threshold', () => {
    expect(atThreshold([0.7, 0.69, 0.9], [true, true, false], 0.7).flagged).toBe(2);
  });
});

describe('threshold picks', () => {
  const scores = [0.95, 0.9, 0.85, 0.8, 0.6, 0.5, 0.4, 0.2, 0.1, 0];
  const labels = [true, true, true, false, true, false, true, false, false, false];
  it('τ_RA is the lowest score keeping precision at the target', () => {
    const ra = pickRaThreshold(scores, labels, 0.8, 2)!;
    expect(ra.tau).toBe(0.6); // 4 of 5 flagged are conflicts
    expect(ra.precision).toBeCloseTo(0.8);
    expect(ra.recall).toBeCloseTo(4 / 5);
  });
  it('τ_RA is null when the precision is never reached', () => {
    expect(pickRaThreshold([0.9, 0.8], [false, true], 0.9, 1)).toBeNull();
  });
  it('τ_TA lies below τ_RA and reaches every positive when F2 says so', () => {
    const ta = pickTaThreshold(scores, labels, 0.6)!;
    expect(ta.tau).toBeLessThan(0.6);
    expect(ta.tau).toBe(0.4);
    expect(ta.recall).toBe(1);
  });
});

describe('τ_TA for a recall target', () => {
  it('takes the highest threshold below τ_RA that reaches the recall target', async () => {
    const { pickTaForRecall } = await import('../../../src/replay/thresholds.js');
    const scores = [0.9, 0.8, 0.6, 0.5, 0.3, 0.1];
    const labels = [true, true, false, true, true, false];
    expect(pickTaForRecall(scores, labels, 0.85, 0.75)!.tau).toBe(0.5); // 3 of 4 conflicts
    expect(pickTaForRecall(scores, labels, 0.85, 1)!.tau).toBe(0.3);
  });
});
