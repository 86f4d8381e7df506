import { describe, expect, it } from 'vitest';
import { DEFAULTS, advise, type Agent } from '../../../src/index.js';
import { CALIBRATED } from '../../../bench/src/accuracy-run.js';
import { intentRisk, intentWeightFor, productBounds } from '../../../src/replay/product-bounds.js';
import { pickRaThresholdByGroup } from '../../../src/replay/thresholds.js';

const empty = { adjacency: {} };

describe('product bounds on thresholds', () => {
  it('match what the engine computes for the canonical pairs under DEFAULTS', () => {
    const bounds = productBounds(DEFAULTS.weights, DEFAULTS.breadthFiles);
    const a: Agent = { id: 'a', files: [{ path: 'x.ts', ranges: [[3, 3]] }] };
    const b: Agent = { id: 'b', files: [{ path: 'x.ts', ranges: [[3, 3]] }] };
    expect(advise(a, b, empty).risk).toBeCloseTo(bounds.raAtMost, 12); // (a): tree ω 0 so 1 − tree counts nothing
    expect(DEFAULTS.tauRA).toBeLessThanOrEqual(bounds.raAtMost);
    expect(DEFAULTS.tauRA).toBeGreaterThan(bounds.raAbove);
    expect(DEFAULTS.tauTA).toBeGreaterThan(bounds.taAbove);
    const intent: Agent = { id: 'i', files: [], intent: ['x.ts'] };
    expect(advise(intent, b, empty).risk).toBeCloseTo(intentRisk(DEFAULTS.weights, DEFAULTS.breadthFiles, DEFAULTS.intentWeight), 12);
    expect(intentWeightFor(DEFAULTS.weights, DEFAULTS.breadthFiles, DEFAULTS.tauTA, DEFAULTS.tauRA)).toBe(DEFAULTS.intentWeight);
  });

  it('the per-repository RA threshold needs the precision in every group it flags', () => {
    // Group p: precise at any threshold; group q: its scores ≥ 0.5 are half wrong.
    const scores = [0.9, 0.8, 0.7, 0.6, 0.9, 0.55, 0.5, 0.1];
    const labels = [true, true, true, true, true, false, true, false];
    const groups = ['p', 'p', 'p', 'p', 'q', 'q', 'q', 'q'];
    const pick = pickRaThresholdByGroup(scores, labels, groups, 0.8, 1)!;
    expect(pick.tau).toBe(0.6); // q flags only its 0.9 (precision 1) down to 0.6; at 0.55 q falls to 1/2
    expect(pick.flagged).toBe(5);
    expect(pickRaThresholdByGroup(scores, labels, groups, 0.8, 6)).toBeNull();
  });

  it('DEFAULTS hold the calibrated values the benchmark reports (the DEFAULTS row equals the calibrated row)', () => {
    for (const [key, value] of Object.entries(CALIBRATED)) {
      if (key === 'weights') for (const [name, w] of Object.entries(value as Record<string, number>)) expect(DEFAULTS.weights[name]).toBe(w);
      else expect(DEFAULTS[key as keyof typeof DEFAULTS]).toEqual(value);
    }
  });
});
