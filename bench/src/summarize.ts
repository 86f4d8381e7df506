/**
 * Turns per-case scores into the benchmark's figures: ROC-AUC for every predictor, and precision /
 * recall of the TA and RA flags for the engine variants and of the flag for binary baselines.
 */
import { BASELINE_LABELS, type BaselineName } from '../../src/replay/baselines.js';
import type { EvalCase } from './case-set.js';
import { confusion, rocAuc, type Confusion } from '../../src/replay/metrics.js';

/**
 * A scored predictor: `scores[i]` for `cases[i]`. An engine variant also has its TA / RA flags per
 * case (out-of-fold flags come from each fold's own thresholds, so they are flags, not one τ).
 */
export interface Predictor {
  readonly name: string;
  readonly scores: readonly number[];
  readonly taFlags?: readonly boolean[];
  readonly raFlags?: readonly boolean[];
  /** A 0/1 predictor: report the precision/recall of its flag. */
  readonly binary?: boolean;
}

export interface PredictorFigures {
  readonly name: string;
  readonly n: number;
  readonly positives: number;
  readonly auc: number;
  readonly ta?: Confusion;
  readonly ra?: Confusion;
  readonly flag?: Confusion;
}

export function figures(predictor: Predictor, labels: readonly boolean[], index: readonly number[]): PredictorFigures {
  const scores = index.map((i) => predictor.scores[i]!);
  const sub = index.map((i) => labels[i]!);
  return {
    name: predictor.name,
    n: sub.length,
    positives: sub.filter(Boolean).length,
    auc: rocAuc(scores, sub),
    ...(predictor.taFlags
      ? {
          ta: confusion(
            index.map((i) => predictor.taFlags![i]!),
            sub,
          ),
        }
      : {}),
    ...(predictor.raFlags
      ? {
          ra: confusion(
            index.map((i) => predictor.raFlags![i]!),
            sub,
          ),
        }
      : {}),
    ...(predictor.binary
      ? {
          flag: confusion(
            scores.map((s) => s > 0),
            sub,
          ),
        }
      : {}),
  };
}

const BINARY: ReadonlySet<BaselineName> = new Set(['anyShared', 'touching', 'cone']);

/** The baselines as predictors over `cases`. */
export function baselinePredictors(cases: readonly EvalCase[]): Predictor[] {
  return (Object.keys(BASELINE_LABELS) as BaselineName[]).map((name) => ({
    name: BASELINE_LABELS[name],
    scores: cases.map((c) => c.baselines[name]),
    binary: BINARY.has(name),
  }));
}

/** Indices of `cases` matching `keep`, in order. */
export function indicesWhere(cases: readonly EvalCase[], keep: (c: EvalCase) => boolean): number[] {
  const out: number[] = [];
  cases.forEach((c, i) => {
    if (keep(c)) out.push(i);
  });
  return out;
}
