/**
 * Calibration by cross-validation over repositories: for each held-out repository, fit on the
 * others (grid over the engine settings that need a rescan × the channel weights that only
 * re-weight the noisy-OR), pick τ_RA and τ_TA on the training repositories, then score the
 * held-out one. The model is never scored on a repository it was fitted on.
 */
import type { ChannelScores } from '../engine/types.js';
import { noisyOr } from './engine-runner.js';
import { atThreshold, rocAuc } from './metrics.js';
import { BOUND_MARGIN, type ThresholdBounds } from './product-bounds.js';
import { pickRaThreshold, pickRaThresholdByGroup, pickTaForRecall } from './thresholds.js';

/** Options that change the channel values themselves (so they need an engine run). */
export interface EngineSetting {
  readonly gamma: number;
  readonly halfLifeMs: number;
  readonly recencyFloor: number;
  readonly adjacency: boolean;
  readonly proximityLines: number;
  readonly breadthFiles: number;
}

export interface CalibrationGrid {
  readonly settings: readonly EngineSetting[];
  readonly weights: readonly Readonly<Record<string, number>>[];
}

export interface Objective {
  /** Training precision the RA threshold must reach (a margin above the 0.80 target). */
  readonly raPrecision: number;
  /** J = AUC + recallWeight · RA recall at that precision. */
  readonly recallWeight: number;
  readonly minRaFlags: number;
  /** Training recall the TA flag must reach (τ_TA = the highest threshold that does). */
  readonly taRecall: number;
  /**
   * Product constraints on the thresholds for given weights (see product-bounds.ts); a weight
   * vector whose bounds leave no valid τ_RA is skipped. Absent: thresholds from the data only.
   */
  readonly bounds?: (weights: Readonly<Record<string, number>>, setting: EngineSetting) => ThresholdBounds;
  /**
   * A τ_RA below the lower product bounds is raised to them instead of rejecting the weights
   * (`calibrate` on one repository, where the precision can be reached far down). The benchmark's
   * fit leaves it off, so its published folds are unchanged.
   */
  readonly raiseToBounds?: boolean;
}

export const DEFAULT_OBJECTIVE: Objective = { raPrecision: 0.85, recallWeight: 0.25, minRaFlags: 5, taRecall: 0.85 };

interface Thresholds {
  readonly tauTA: number;
  readonly tauRA: number;
  readonly raRecall: number;
  readonly raPrecision: number;
}

/**
 * τ_RA: the lowest score reaching the training precision, capped by the product bound (a);
 * τ_TA: the highest score below τ_RA reaching the training recall, raised above bound (e).
 * null when the bounds leave no room (τ_RA would have to sit at or below bound (d)).
 */
function thresholds(
  scores: readonly number[],
  y: readonly boolean[],
  groups: readonly string[] | null,
  objective: Objective,
  bounds: ThresholdBounds | undefined,
): Thresholds | null {
  const ra = groups
    ? pickRaThresholdByGroup(scores, y, groups, objective.raPrecision, objective.minRaFlags)
    : pickRaThreshold(scores, y, objective.raPrecision, objective.minRaFlags);
  let tauRA = ra?.tau ?? 1.000001;
  if (bounds) {
    tauRA = Math.min(tauRA, bounds.raAtMost);
    // A repository where conflicts are common reaches the precision far down; the product rules
    // (d, e) then decide how low τ_RA may go.
    if (objective.raiseToBounds) tauRA = Math.max(tauRA, Math.min(bounds.raAtMost, Math.max(bounds.raAbove, bounds.taAbove + BOUND_MARGIN) + 2 * BOUND_MARGIN));
    if (tauRA <= bounds.raAbove + BOUND_MARGIN || tauRA <= bounds.taAbove + 2 * BOUND_MARGIN) return null;
  }
  const at = atThreshold(scores, y, tauRA);
  const ta = pickTaForRecall(scores, y, tauRA, objective.taRecall);
  let tauTA = ta?.tau ?? tauRA;
  if (bounds) {
    tauTA = Math.min(Math.max(tauTA, bounds.taAbove + BOUND_MARGIN), tauRA);
    if (bounds.accepts && !bounds.accepts(tauTA, tauRA)) return null;
  }
  // Nothing flagged: no recall, and no precision shortfall either.
  const raPrecision = at.flagged === 0 ? objective.raPrecision : at.precision;
  return { tauTA, tauRA, raRecall: Number.isNaN(at.recall) ? 0 : at.recall, raPrecision };
}

export interface Fit {
  readonly setting: EngineSetting;
  readonly weights: Readonly<Record<string, number>>;
  readonly tauTA: number;
  readonly tauRA: number;
  readonly trainAuc: number;
  readonly trainRaRecall: number;
  readonly objective: number;
  /** Best training objective with each setting / weight value held fixed ("axis=value" → J). */
  readonly sensitivity: Readonly<Record<string, number>>;
}

/** Channel scores of every case under a setting (the caller memoises: one engine pass per setting). */
export type ChannelsOf = (setting: EngineSetting) => readonly ChannelScores[];

/** Channel columns of the training cases (typed arrays: the grid runs this inner loop ~10^5 times). */
function columns(channels: readonly ChannelScores[], train: readonly number[], names: readonly string[]): Float64Array[] {
  return names.map((name) => Float64Array.from(train, (i) => Math.min(1, Math.max(0, channels[i]![name] ?? 0))));
}

/**
 * With `groups` (the repository of each case), AUC is the mean of the per-repository AUCs and τ_RA
 * must reach the precision in every repository: both keep one repository's base rate from
 * deciding the fit. Without, pooled figures.
 */
export function fit(
  channelsOf: ChannelsOf,
  labels: readonly boolean[],
  train: readonly number[],
  grid: CalibrationGrid,
  objective: Objective = DEFAULT_OBJECTIVE,
  groups?: readonly string[],
): Fit {
  const y = train.map((i) => labels[i]!);
  const g = groups ? train.map((i) => groups[i]!) : null;
  const groupIndex = g ? [...new Set(g)].map((name) => g.flatMap((x, k) => (x === name ? [k] : []))) : [];
  const aucOf = (scores: readonly number[]): number => {
    if (groupIndex.length < 2) return rocAuc(scores, y);
    const each = groupIndex
      .map((idx) =>
        rocAuc(
          idx.map((k) => scores[k]!),
          idx.map((k) => y[k]!),
        ),
      )
      .filter((a) => !Number.isNaN(a));
    return each.reduce((s, a) => s + a, 0) / each.length;
  };
  const names = [...new Set(grid.weights.flatMap((w) => Object.keys(w)))];
  const scores = new Array<number>(train.length);
  let best: Fit | null = null;
  const sensitivity: Record<string, number> = {};
  const note = (key: string, value: number): void => {
    if (!(key in sensitivity) || value > sensitivity[key]!) sensitivity[key] = value;
  };
  for (const setting of grid.settings) {
    const cols = columns(channelsOf(setting), train, names);
    for (const weights of grid.weights) {
      const w = names.map((name) => weights[name] ?? 1);
      for (let k = 0; k < train.length; k += 1) {
        let clear = 1;
        for (let c = 0; c < cols.length; c += 1) clear *= 1 - w[c]! * cols[c]![k]!;
        scores[k] = 1 - clear;
      }
      const auc = aucOf(scores);
      const t = thresholds(scores, y, groupIndex.length >= 2 ? g : null, objective, objective.bounds?.(weights, setting));
      if (t === null) continue;
      // A capped τ_RA can fall below the precision target: that shortfall costs twice its size.
      const value = auc + objective.recallWeight * t.raRecall - 2 * Math.max(0, objective.raPrecision - t.raPrecision);
      for (const [axis, v] of [...Object.entries(setting), ...Object.entries(weights).map(([k, x]) => [`ω_${k}`, x] as const)]) note(`${axis}=${v}`, value);
      if (best && value <= best.objective) continue;
      best = { setting, weights, tauTA: t.tauTA, tauRA: t.tauRA, trainAuc: auc, trainRaRecall: t.raRecall, objective: value, sensitivity };
    }
  }
  if (!best) throw new RangeError('empty calibration grid (or no weights satisfy the bounds)');
  return best;
}

export interface FoldResult {
  readonly heldOut: string;
  readonly fit: Fit;
  /** Out-of-fold risk of each held-out case (index into the case list). */
  readonly scores: ReadonlyMap<number, number>;
}

/** Leave-one-repository-out: fit on the others, score the held-out repository. */
export function crossValidateByRepo(
  channelsOf: ChannelsOf,
  labels: readonly boolean[],
  repos: readonly string[],
  grid: CalibrationGrid,
  objective: Objective = DEFAULT_OBJECTIVE,
): FoldResult[] {
  const names = [...new Set(repos)].sort();
  if (names.length < 2) return []; // nothing to hold out against
  return names.map((heldOut) => {
    const train = repos.flatMap((r, i) => (r === heldOut ? [] : [i]));
    const test = repos.flatMap((r, i) => (r === heldOut ? [i] : []));
    const chosen = fit(channelsOf, labels, train, grid, objective, repos);
    const channels = channelsOf(chosen.setting);
    return { heldOut, fit: chosen, scores: new Map(test.map((i) => [i, noisyOr(channels[i]!, chosen.weights)])) };
  });
}
