/**
 * `calibrate`'s arithmetic (no I/O): fit the channel weights (within the product bounds of
 * docs/decisions/calibration.md) and τ_TA / τ_RA on a repository's OLDER merges, score them on its
 * NEWER merges against the model in effect, and fit the values to write on every merge. Validated
 * by time, not at random: a model is used on the merges that come after the ones it learned from.
 */
import type { ChannelScores } from '../engine/types.js';
import { DEFAULT_OBJECTIVE, fit, type EngineSetting, type Fit } from './calibrate.js';
import { noisyOr } from './engine-runner.js';
import { confusion, rocAuc } from './metrics.js';
import { BOUND_MARGIN, intentWeightFor, productBounds } from './product-bounds.js';

/** One merge at the primary moment: unweighted channels, the merge channel's evidence, the label. */
export interface CalibrationCase {
  readonly merge: string;
  /** Merge committer time (unix s): the time order of the validation. */
  readonly time: number;
  readonly channels: ChannelScores;
  /** The two sides' states conflicted in `git merge-tree` at the moment (the RA of the evidence rule). */
  readonly evidence: boolean;
  readonly label: boolean;
}

export interface ModelValues {
  readonly weights: Readonly<Record<string, number>>;
  readonly tauTA: number;
  readonly tauRA: number;
}

export interface FlagScore {
  readonly flagged: number;
  readonly precision: number | null;
  readonly recall: number | null;
}

/** A model scored on a set of merges under the blocking rule in effect (evidence: RA only on evidence). */
export interface ModelScore {
  readonly auc: number | null;
  /** Every advisory the user sees: R ≥ τ_TA, or evidence. */
  readonly ta: FlagScore;
  /** Risk alone at τ_RA: a block under `blockOn: 'risk'`, a predicted RA under the evidence rule. */
  readonly predictedRA: FlagScore;
  /** Evidence (merge-tree conflict of the two states): the RA under the default rule; no threshold. */
  readonly evidenceRA: FlagScore;
}

export interface HistoryCalibration {
  readonly fitMerges: number;
  readonly fitConflicts: number;
  readonly testMerges: number;
  readonly testConflicts: number;
  /** The model in effect and the model fitted on the older merges, both scored on the newer ones. */
  readonly before: ModelScore;
  readonly after: ModelScore;
  /** The values fitted on every merge (what `--write` writes), with the intent weight rule (c) needs. */
  readonly proposed: ModelValues & { readonly intentWeight: number | null };
  /** The time-validated fit did not beat the model in effect: keep it. */
  readonly keep: boolean;
}

/** Share of the merges (oldest first) the validation fits on; the rest are scored. */
export const FIT_SHARE = 2 / 3;
/** Grid of weight vectors (the accuracy benchmark's full grid). */
const GRID_VALUES = {
  overlap: [0.2, 0.4, 0.6],
  proximity: [0.5, 0.6, 0.7, 0.85],
  dependency: [0, 0.05, 0.15],
  tree: [0, 0.1, 0.25],
  breadth: [0, 0.2, 0.35, 0.5],
} as const;

export function weightGrid(): Record<string, number>[] {
  const out: Record<string, number>[] = [];
  for (const overlap of GRID_VALUES.overlap)
    for (const proximity of GRID_VALUES.proximity)
      for (const dependency of GRID_VALUES.dependency)
        for (const tree of GRID_VALUES.tree) for (const breadth of GRID_VALUES.breadth) out.push({ overlap, proximity, dependency, tree, breadth });
  return out;
}

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

function flagScore(flags: readonly boolean[], labels: readonly boolean[]): FlagScore {
  const c = confusion(flags, labels);
  return { flagged: c.flagged, precision: finite(c.precision), recall: finite(c.recall) };
}

export function scoreModel(cases: readonly CalibrationCase[], model: ModelValues): ModelScore {
  const risk = cases.map((c) => noisyOr(c.channels, model.weights));
  const labels = cases.map((c) => c.label);
  // R as the product ranks it: the merge channel (ω 1) makes evidence R = 1.
  const ranked = risk.map((r, i) => (cases[i]!.evidence ? 1 : r));
  return {
    auc: finite(rocAuc(ranked, labels)),
    ta: flagScore(
      ranked.map((r, i) => cases[i]!.evidence || r >= model.tauTA),
      labels,
    ),
    predictedRA: flagScore(
      risk.map((r) => r >= model.tauRA),
      labels,
    ),
    evidenceRA: flagScore(
      cases.map((c) => c.evidence),
      labels,
    ),
  };
}

/** The best weights and thresholds on `cases`; null when no weight vector satisfies the product bounds. */
function fitOn(cases: readonly CalibrationCase[], setting: EngineSetting): ModelValues | null {
  const channels = cases.map((c) => c.channels);
  const labels = cases.map((c) => c.label);
  const objective = {
    ...DEFAULT_OBJECTIVE,
    raiseToBounds: true,
    bounds: (weights: Readonly<Record<string, number>>) => productBounds(weights, setting.breadthFiles),
  };
  try {
    const best: Fit = fit(
      () => channels,
      labels,
      cases.map((_, i) => i),
      { settings: [setting], weights: weightGrid() },
      objective,
    );
    return { weights: best.weights, tauTA: evidenceTauTA(cases, best, setting), tauRA: best.tauRA };
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

/**
 * τ_TA for the evidence rule: a warning is R ≥ τ_TA OR evidence, so what evidence already catches
 * needs no low threshold. The highest τ_TA in the product band (above bound (e), at most τ_RA, an
 * intent weight still landing in [τ_TA, τ_RA)) whose training recall, evidence included, reaches
 * the objective's; the fit's own τ_TA when none does.
 */
function evidenceTauTA(cases: readonly CalibrationCase[], best: Fit, setting: EngineSetting): number {
  const bounds = productBounds(best.weights, setting.breadthFiles);
  const risk = cases.map((c) => noisyOr(c.channels, best.weights));
  const positives = cases.filter((c) => c.label).length;
  // Steps of 0.01, as the written values are rounded: the highest that keeps the recall wins.
  for (let step = Math.floor(best.tauRA * 100); step / 100 > bounds.taAbove + BOUND_MARGIN; step -= 1) {
    const tau = step / 100;
    const caught = cases.filter((c, i) => c.label && (c.evidence || risk[i]! >= tau)).length;
    if (caught >= DEFAULT_OBJECTIVE.taRecall * positives && (bounds.accepts?.(tau, best.tauRA) ?? true)) return Math.max(tau, best.tauTA);
  }
  return best.tauTA;
}

/** F-measure weighting recall twice (a missed collision costs more than a warning too many). */
function f2(score: FlagScore): number {
  const p = score.precision ?? 0;
  const r = score.recall ?? 0;
  return p + r === 0 ? 0 : (5 * p * r) / (4 * p + r);
}

/**
 * `setting` = the channel settings in effect (they are not refitted: that would need a rescan per
 * value). `current` = the model in effect (DEFAULTS with the user's overrides).
 */
export function calibrateHistory(cases: readonly CalibrationCase[], setting: EngineSetting, current: ModelValues): HistoryCalibration {
  const ordered = [...cases].sort((x, y) => x.time - y.time || (x.merge < y.merge ? -1 : 1));
  const cut = Math.round(ordered.length * FIT_SHARE);
  const older = ordered.slice(0, cut);
  const newer = ordered.slice(cut);
  const early = fitOn(older, setting) ?? current;
  const before = scoreModel(newer, current);
  const after = scoreModel(newer, early);
  const all = fitOn(ordered, setting) ?? current;
  // Kept unless the fit ranks the newer merges at least as well and warns about them better.
  const keep = (after.auc ?? 0) < (before.auc ?? 0) - 0.005 || f2(after.ta) <= f2(before.ta);
  return {
    fitMerges: older.length,
    fitConflicts: older.filter((c) => c.label).length,
    testMerges: newer.length,
    testConflicts: newer.filter((c) => c.label).length,
    before,
    after,
    proposed: {
      weights: all.weights,
      tauTA: round(all.tauTA),
      tauRA: round(all.tauRA),
      intentWeight: intentWeightFor(all.weights, setting.breadthFiles, all.tauTA, all.tauRA),
    },
    keep,
  };
}

/** Thresholds rounded DOWN to 0.01 (as the defaults): never above the fitted value, so bound (a) keeps its margin. */
const round = (x: number): number => Math.floor(x * 100) / 100;
