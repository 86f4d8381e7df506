import { describe, expect, it } from 'vitest';
import { crossValidateByRepo, fit, type CalibrationGrid, type EngineSetting } from '../../../src/replay/calibrate.js';
import { noisyOr } from '../../../src/replay/engine-runner.js';

const setting: EngineSetting = { gamma: 0.5, halfLifeMs: 1, recencyFloor: 1, adjacency: true, proximityLines: 50, breadthFiles: 5 };
const grid: CalibrationGrid = {
  settings: [setting],
  weights: [
    { overlap: 1, dependency: 0 },
    { overlap: 0, dependency: 1 },
  ],
};

// Repos r1, r2: conflicts follow `overlap`. Repo r3: conflicts follow `dependency` instead.
const rows = [
  ...['r1', 'r2'].flatMap((repo) => [0.9, 0.8, 0.7, 0.2, 0.1, 0.05].map((o, k) => ({ repo, label: k < 3, ch: { overlap: o, dependency: 1 - o } }))),
  ...[0.9, 0.8, 0.7, 0.2, 0.1, 0.05].map((d, k) => ({ repo: 'r3', label: k < 3, ch: { overlap: 1 - d, dependency: d } })),
];
const channelsOf = () => rows.map((r) => r.ch);
const labels = rows.map((r) => r.label);

describe('calibration by repository', () => {
  it('fits weights and thresholds on the training indices only', () => {
    const train = rows.flatMap((r, i) => (r.repo !== 'r3' ? [i] : []));
    // biome-ignore lint/suspicious/noFocusedTests: `fit` is the calibration under test, not jasmine's focused `it`
    const chosen = fit(channelsOf, labels, train, grid, { raPrecision: 0.8, recallWeight: 0.25, minRaFlags: 1, taRecall: 0.85 });
    expect(chosen.weights).toEqual({ overlap: 1, dependency: 0 });
    expect(chosen.trainAuc).toBe(1);
    expect(chosen.tauRA).toBe(0.7);
  });
  it('never scores a repository with a model fitted on it: the odd repository is held out and loses', () => {
    const folds = crossValidateByRepo(
      channelsOf,
      labels,
      rows.map((r) => r.repo),
      grid,
      { raPrecision: 0.8, recallWeight: 0.25, minRaFlags: 1, taRecall: 0.85 },
    );
    expect(folds.map((f) => f.heldOut)).toEqual(['r1', 'r2', 'r3']);
    const r3 = folds[2]!;
    expect(r3.fit.weights).toEqual({ overlap: 1, dependency: 0 }); // learnt from r1 + r2
    expect([...r3.scores.keys()].every((i) => rows[i]!.repo === 'r3')).toBe(true);
    expect(r3.scores.get(12)).toBeCloseTo(noisyOr(rows[12]!.ch, r3.fit.weights)); // 0.1: a conflict scored low
  });
});
