/**
 * The accuracy benchmark as one call (the bench script and the smoke test share it): load the
 * cases, run the engine variants and (unless smoke) the calibration, render the markdown.
 */
import picomatch from 'picomatch';
import { DEFAULT_IGNORE } from '../../src/config/defaults.js';
import type { EngineOptions } from '../../src/engine/options.js';
import type { MergeEvidence } from './merge-evidence.js';
import { calibrationGrid, runAccuracy, type AccuracyResult } from './accuracy-run.js';
import { renderAccuracyReport } from './accuracy-report.js';
import { collectCases, type EvalCase } from './case-set.js';
import type { EngineFns } from '../../src/replay/engine-runner.js';
import { datasetPaths } from './load-scenarios.js';
import { figures, indicesWhere } from './summarize.js';

export interface BenchOptions {
  readonly dataDir: string;
  /** Every `smokeStride`-th scenario, a small calibration grid: seconds, for CI. */
  readonly smoke: boolean;
  readonly smokeStride?: number;
  /** Read at most this many scenario lines (tests). */
  readonly maxLines?: number;
  readonly calibrate?: boolean;
  readonly command?: string;
  readonly clock?: () => number;
  /** The merge channel per scenario and moment (bench/data/merge-evidence.dev.jsonl); absent: risk rule only. */
  readonly evidence?: MergeEvidence | null;
  /** Leave the config's ignored files in the working sets (the seed's benchmark did). */
  readonly keepIgnored?: boolean;
}

export interface BenchOutput {
  readonly cases: readonly EvalCase[];
  readonly result: AccuracyResult;
  readonly markdown: string;
  /** One line per predictor at the primary moment, for the terminal. */
  readonly summary: readonly string[];
}

export async function benchAccuracy(engine: EngineFns, defaults: EngineOptions, options: BenchOptions): Promise<BenchOutput> {
  const clock = options.clock ?? (() => 0);
  const started = clock();
  const stride = options.smokeStride ?? 20;
  const ignored = picomatch([...DEFAULT_IGNORE], { dot: true });
  const cases = await collectCases(datasetPaths(options.dataDir), {
    ...(options.smoke ? { select: (i: number) => i % stride === 0 } : {}),
    ...(options.maxLines !== undefined ? { maxLines: options.maxLines } : {}),
    ...(options.keepIgnored ? {} : { ignore: ignored }),
    evidence: options.evidence ?? null,
  });
  const result = runAccuracy(cases, engine, defaults, { calibrate: options.calibrate ?? true, grid: calibrationGrid(options.smoke) });
  const markdown = renderAccuracyReport(result, cases, {
    dataDir: options.dataDir,
    mode: options.smoke ? 'smoke' : 'full',
    seconds: (clock() - started) / 1000,
    command: options.command ?? 'npm run bench:accuracy',
  });
  const labels = cases.map((c) => c.label);
  const primary = indicesWhere(cases, (c) => c.moment === 'both-0.5');
  const summary = result.predictors.map((p) => {
    const f = figures(p, labels, primary);
    const fmt = (x: number | undefined): string => (x === undefined || Number.isNaN(x) ? '  —  ' : x.toFixed(3));
    const ra = f.ra ? `  RA P ${fmt(f.ra.precision)} R ${fmt(f.ra.recall)}` : '';
    return `${f.name.padEnd(52)} AUC ${fmt(f.auc)}${ra}`;
  });
  return { cases, result, markdown, summary };
}
