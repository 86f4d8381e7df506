/**
 * The accuracy benchmark's computation (no I/O, no console): engine variants run through the real
 * engine on every case, baselines, and the calibration by repository. The bench script loads the
 * cases, calls `runAccuracy`, renders the result and writes it.
 */
import type { EngineOptions } from '../../src/engine/options.js';
import type { ExternalChannelValue } from '../../src/engine/types.js';
import {
  crossValidateByRepo,
  DEFAULT_OBJECTIVE,
  fit,
  type CalibrationGrid,
  type EngineSetting,
  type Fit,
  type FoldResult,
  type Objective,
} from '../../src/replay/calibrate.js';
import type { EvalCase } from './case-set.js';
import { channelCache, CHANNEL_NAMES } from './channel-cache.js';
import { noisyOr, scorePair, type EngineFns } from '../../src/replay/engine-runner.js';
import { productBounds } from '../../src/replay/product-bounds.js';
import { baselinePredictors, indicesWhere, type Predictor } from './summarize.js';
import type { MomentId } from './scenario-types.js';

const HOUR = 3_600_000;

/** The reference implementation's defaults (docs/decisions/calibration.md): no proximity channel. */
export const REFERENCE: Partial<EngineOptions> = {
  weights: { overlap: 1, dependency: 0.9, tree: 0.25, proximity: 0, breadth: 0 },
  gamma: 0.5,
  maxDepth: 6,
  tauTA: 0.35,
  tauRA: 0.7,
  recencyFloor: 0.15,
  halfLifeMs: 24 * HOUR,
  adjacency: true,
  proximityLines: 50,
  breadthFiles: 5,
  channels: CHANNEL_NAMES,
  blockOn: 'risk',
};

/** The first calibration (max-gap proximity, no breadth channel): kept as a row to show what changed. */
export const PREVIOUS_CALIBRATION: Partial<EngineOptions> = {
  weights: { overlap: 0.4, proximity: 0.85, dependency: 0.05, tree: 0.25, breadth: 0 },
  gamma: 0.5,
  maxDepth: 6,
  tauTA: 0.82,
  tauRA: 0.88,
  recencyFloor: 1,
  halfLifeMs: 24 * HOUR,
  adjacency: true,
  proximityLines: 100,
  breadthFiles: 5,
  channels: CHANNEL_NAMES,
  blockOn: 'risk',
};

/**
 * The values chosen by the calibration (fit on all three repositories at both-0.5, rounded; see
 * docs/decisions/calibration.md). src/engine/defaults.ts holds the same values; this copy keeps
 * the report's row fixed while DEFAULTS is being changed.
 */
export const CALIBRATED: Partial<EngineOptions> = {
  weights: { overlap: 0.2, proximity: 0.7, dependency: 0.05, tree: 0, breadth: 0.35 },
  gamma: 0.5,
  tauTA: 0.62,
  tauRA: 0.77,
  recencyFloor: 1,
  halfLifeMs: 24 * HOUR,
  adjacency: true,
  proximityLines: 50,
  breadthFiles: 5,
  intentWeight: 0.8,
  channels: CHANNEL_NAMES,
};

/** The seed's blocking rule (R ≥ τ_RA blocks), kept as rows to measure what the evidence rule costs. */
const RISK_RULE: Partial<EngineOptions> = { blockOn: 'risk' };

/** The product's merge channel for a case, as src/run/score-pairs.ts passes it to the engine. */
function mergeChannelOf(c: EvalCase): ExternalChannelValue[] {
  if (c.evidence === null) return [];
  const conflict = c.evidence.length > 0;
  return [
    {
      a: c.agents[0].id,
      b: c.agents[1].id,
      channel: 'merge',
      value: conflict ? 1 : 0,
      ...(conflict ? { evidence: `merge-tree conflict in ${c.evidence.join(', ')}` } : {}),
    },
  ];
}

/**
 * Out-of-fold scores under the evidence rule: R with the merge channel (ω_merge = 1, so evidence
 * means R = 1), TA at R ≥ the fold's τ_TA or on evidence, RA only on evidence (blockOn 'evidence').
 */
function evidenceRule(name: string, cases: readonly EvalCase[], riskScores: readonly number[], tauTA: (i: number) => number): Predictor {
  const seen = cases.map((c) => (c.evidence?.length ?? 0) > 0);
  return {
    name,
    scores: riskScores.map((s, i) => (seen[i] ? 1 : s)),
    taFlags: riskScores.map((s, i) => seen[i]! || s >= tauTA(i)),
    raFlags: seen,
  };
}

/**
 * The search space. γ and adjacency tied in the first calibration (and γ only moves a channel whose
 * weight stays near 0), so they are fixed; the floor, the proximity scale and the breadth scale
 * change channel values (one engine pass each); the weights only re-weight the noisy-OR. `small`
 * is the smoke grid.
 */
export function calibrationGrid(small: boolean): CalibrationGrid {
  const settings: EngineSetting[] = [];
  const floors = small ? [1] : [0.15, 0.5, 1];
  const lines = small ? [50] : [50, 100];
  const breadths = small ? [5] : [3, 5, 10];
  for (const recencyFloor of floors)
    for (const proximityLines of lines)
      for (const breadthFiles of breadths) settings.push({ gamma: 0.5, halfLifeMs: 24 * HOUR, recencyFloor, adjacency: true, proximityLines, breadthFiles });
  const weights: Record<string, number>[] = [];
  for (const overlap of small ? [0.4] : [0.2, 0.4, 0.6])
    for (const proximity of small ? [0.6, 0.85] : [0.5, 0.6, 0.7, 0.85])
      for (const dependency of small ? [0, 0.05] : [0, 0.05, 0.15])
        for (const tree of small ? [0] : [0, 0.1, 0.25])
          for (const breadth of small ? [0, 0.35] : [0, 0.2, 0.35, 0.5]) weights.push({ overlap, proximity, dependency, tree, breadth });
  return { settings, weights };
}

/** Row names other modules look up (report, summary). */
export const EVIDENCE_DEFAULTS = 'engine, DEFAULTS, evidence rule (product: merge channel; RA needs evidence)';
export const OUT_OF_FOLD_RISK = 'engine, calibrated (out-of-fold by repository), risk rule';
export const OUT_OF_FOLD_EVIDENCE = 'engine, calibrated (out-of-fold by repository), evidence rule';

export interface AccuracyConfig {
  readonly calibrate: boolean;
  readonly grid: CalibrationGrid;
  readonly objective?: Objective;
  /** The moment the model is fitted at (the primary target). */
  readonly fitMoment?: MomentId;
}

export interface AccuracyResult {
  readonly predictors: readonly Predictor[];
  readonly folds: readonly FoldResult[];
  /** The fit on every repository (what DEFAULTS should hold); in-sample on this split. */
  readonly allRepoFit: Fit | null;
  /** Reference defaults: RA flags that the dependency channel alone pushes over τ_RA. */
  readonly dependencyOnlyRA: Predictor;
  /** r_dep under the reference setting, per case (for the dependency-label analysis). */
  readonly dependencyScores: readonly number[];
  /** Largest |engine risk − recombined risk| under DEFAULTS: the recombination is the engine's noisy-OR. */
  readonly recombinationError: number;
}

function engineVariant(name: string, engine: EngineFns, cases: readonly EvalCase[], options: Partial<EngineOptions>, withMerge = false): Predictor {
  const scores = cases.map((c) => scorePair(engine, c.agents, c.graph, c.now, withMerge ? { ...options, external: mergeChannelOf(c) } : options));
  return { name, scores: scores.map((s) => s.risk), taFlags: scores.map((s) => s.level !== 'clear'), raFlags: scores.map((s) => s.level === 'RA') };
}

export function runAccuracy(cases: readonly EvalCase[], engine: EngineFns, defaults: EngineOptions, config: AccuracyConfig): AccuracyResult {
  const reference = engineVariant('engine, reference defaults', engine, cases, REFERENCE);
  const noDependency = engineVariant('engine, reference without dependency (ω_dep = 0)', engine, cases, {
    ...REFERENCE,
    weights: { ...REFERENCE.weights, dependency: 0 },
  });
  const current = engineVariant('engine, DEFAULTS, risk rule (R ≥ τ_RA blocks; no merge channel)', engine, cases, RISK_RULE);
  const previous = engineVariant('engine, first calibration (max gap, no breadth; in-sample)', engine, cases, PREVIOUS_CALIBRATION);
  const calibrated = engineVariant('engine, calibrated values (all-repo fit: in-sample)', engine, cases, { ...CALIBRATED, ...RISK_RULE });
  const predictors: Predictor[] = [...baselinePredictors(cases), reference, noDependency, previous, current, calibrated];
  const hasEvidence = cases.some((c) => c.evidence !== null);
  if (hasEvidence) predictors.push(engineVariant(EVIDENCE_DEFAULTS, engine, cases, {}, true));

  const all = channelCache(engine, cases);
  const refSetting: EngineSetting = { gamma: 0.5, halfLifeMs: 24 * HOUR, recencyFloor: 0.15, adjacency: true, proximityLines: 50, breadthFiles: 5 };
  const refChannels = all(refSetting);
  const dependencyOnlyRA: Predictor = {
    name: 'RA forced by the dependency channel alone (reference)',
    scores: refChannels.map((ch) => ch.dependency ?? 0),
    raFlags: refChannels.map((ch, i) => reference.raFlags![i]! && noisyOr(ch, { ...REFERENCE.weights!, dependency: 0 }) < 0.7),
  };
  const defaultSetting: EngineSetting = {
    gamma: defaults.gamma,
    halfLifeMs: defaults.halfLifeMs,
    recencyFloor: defaults.recencyFloor,
    adjacency: defaults.adjacency,
    proximityLines: defaults.proximityLines,
    breadthFiles: defaults.breadthFiles,
  };
  const recombinationError = Math.max(0, ...all(defaultSetting).map((ch, i) => Math.abs(noisyOr(ch, defaults.weights) - current.scores[i]!)));

  let folds: FoldResult[] = [];
  let allRepoFit: Fit | null = null;
  if (config.calibrate && new Set(cases.map((c) => c.repo)).size >= 2) {
    const fitIndex = indicesWhere(cases, (c) => c.moment === (config.fitMoment ?? 'both-0.5'));
    const fitCases = fitIndex.map((i) => cases[i]!);
    const fitChannels = channelCache(engine, fitCases);
    fitChannels.prewarm(config.grid.settings);
    const objective: Objective = config.objective ?? { ...DEFAULT_OBJECTIVE, bounds: (weights, setting) => productBounds(weights, setting.breadthFiles) };
    const fitLabels = fitCases.map((c) => c.label);
    const fitRepos = fitCases.map((c) => c.repo);
    folds = crossValidateByRepo(fitChannels, fitLabels, fitRepos, config.grid, objective);
    // biome-ignore lint/suspicious/noFocusedTests: `fit` is the calibration's grid search (src/replay/calibrate.ts), not a focused test
    allRepoFit = fit(
      fitChannels,
      fitLabels,
      fitCases.map((_, i) => i),
      config.grid,
      objective,
      fitRepos,
    );
    // Out of fold at every moment: each repository scored by the model fitted on the others.
    const byRepo = new Map(folds.map((f) => [f.heldOut, f.fit]));
    const scores = cases.map((c, i) => {
      const f = byRepo.get(c.repo)!;
      return noisyOr(all(f.setting)[i]!, f.weights);
    });
    predictors.push({
      name: OUT_OF_FOLD_RISK,
      scores,
      taFlags: scores.map((s, i) => s >= byRepo.get(cases[i]!.repo)!.tauTA),
      raFlags: scores.map((s, i) => s >= byRepo.get(cases[i]!.repo)!.tauRA),
    });
    if (hasEvidence) predictors.push(evidenceRule(OUT_OF_FOLD_EVIDENCE, cases, scores, (i) => byRepo.get(cases[i]!.repo)!.tauTA));
  }
  return { predictors, folds, allRepoFit, dependencyOnlyRA, dependencyScores: refChannels.map((ch) => ch.dependency ?? 0), recombinationError };
}
