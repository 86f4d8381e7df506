import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULTS, advise, scanAirspace } from '../../../src/index.js';
import { benchAccuracy } from '../../../bench/src/accuracy-bench.js';
import { figures, indicesWhere } from '../../../bench/src/summarize.js';

// AIRSPACE_MERGE_SCENARIOS points elsewhere (a worktree that is not beside ../shared).
const dataDir = process.env.AIRSPACE_MERGE_SCENARIOS ?? resolve(import.meta.dirname, '..', '..', '..', '..', 'shared', 'data', 'merge-scenarios');
const haveData = existsSync(join(dataDir, 'dev.jsonl'));
// The merge-scenario data lives beside the clone (../shared/data), as on CI. Without it this test is
// skipped, and says so by name: the closing summary of `npm test` lists every skipped test.
const NAME = 'scores the first scenarios at every moment with sane metrics';

describe('accuracy benchmark, smoke logic on real scenario lines', () => {
  it.skipIf(!haveData)(haveData ? NAME : `${NAME} (SKIPPED: no merge-scenario data at ${dataDir})`, async () => {
    const out = await benchAccuracy({ scanAirspace, advise }, DEFAULTS, { dataDir, smoke: true, smokeStride: 2, maxLines: 80, calibrate: false });
    expect(out.cases.length).toBe(40 * 7);
    const labels = out.cases.map((c) => c.label);
    const conflicts = indicesWhere(out.cases, (c) => c.moment === 'final' && c.label).length;
    expect(conflicts).toBeGreaterThan(0);
    for (const moment of ['both-0.5', 'final']) {
      const index = indicesWhere(out.cases, (c) => c.moment === moment);
      for (const p of out.result.predictors) {
        const f = figures(p, labels, index);
        expect(f.auc).toBeGreaterThanOrEqual(0);
        expect(f.auc).toBeLessThanOrEqual(1);
        for (const c of [f.ta, f.ra, f.flag]) {
          if (!c) continue;
          expect(c.truePositives).toBeLessThanOrEqual(c.flagged);
          if (!Number.isNaN(c.precision)) expect(c.precision).toBeGreaterThanOrEqual(0);
        }
      }
    }
    // At the final state, overlapping-or-touching ranges nearly re-implement git's merge.
    const touching = out.result.predictors.find((p) => p.name.startsWith('overlapping-or-touching'))!;
    expect(
      figures(
        touching,
        labels,
        indicesWhere(out.cases, (c) => c.moment === 'final'),
      ).auc,
    ).toBeGreaterThan(0.8);
    expect(out.result.recombinationError).toBeLessThan(1e-9);
    expect(out.markdown).toContain('## Moment both-0.5 (primary target)');
  });
});
