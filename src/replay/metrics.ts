/**
 * Classification metrics for the accuracy benchmark. ROC-AUC is the Mann–Whitney statistic with
 * tied scores given their average rank, so a constant predictor scores exactly 0.5 and ties
 * between a positive and a negative count one half.
 */

/** ROC-AUC of `scores` against boolean `labels`; NaN when one class is absent. */
export function rocAuc(scores: readonly number[], labels: readonly boolean[]): number {
  if (scores.length !== labels.length) throw new RangeError('scores and labels differ in length');
  const order = scores.map((s, i) => ({ s, i })).sort((x, y) => x.s - y.s);
  const ranks = new Array<number>(scores.length);
  for (let lo = 0; lo < order.length; ) {
    let hi = lo;
    while (hi + 1 < order.length && order[hi + 1]!.s === order[lo]!.s) hi += 1;
    const average = (lo + hi) / 2 + 1;
    for (let k = lo; k <= hi; k += 1) ranks[order[k]!.i] = average;
    lo = hi + 1;
  }
  let positives = 0;
  let rankSum = 0;
  labels.forEach((label, i) => {
    if (label) {
      positives += 1;
      rankSum += ranks[i]!;
    }
  });
  const negatives = labels.length - positives;
  if (positives === 0 || negatives === 0) return Number.NaN;
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

export interface Confusion {
  readonly flagged: number;
  readonly truePositives: number;
  readonly positives: number;
  readonly total: number;
  /** TP / flagged; NaN when nothing is flagged. */
  readonly precision: number;
  /** TP / positives; NaN when there is no positive. */
  readonly recall: number;
}

/** Precision and recall of a flag (`predicted[i]`) against `labels`. */
export function confusion(predicted: readonly boolean[], labels: readonly boolean[]): Confusion {
  if (predicted.length !== labels.length) throw new RangeError('predictions and labels differ in length');
  let flagged = 0;
  let truePositives = 0;
  let positives = 0;
  predicted.forEach((flag, i) => {
    if (flag) flagged += 1;
    if (labels[i]) positives += 1;
    if (flag && labels[i]) truePositives += 1;
  });
  return {
    flagged,
    truePositives,
    positives,
    total: labels.length,
    precision: flagged === 0 ? Number.NaN : truePositives / flagged,
    recall: positives === 0 ? Number.NaN : truePositives / positives,
  };
}

/** Flags `score ≥ threshold` and returns the confusion. */
export function atThreshold(scores: readonly number[], labels: readonly boolean[], threshold: number): Confusion {
  return confusion(
    scores.map((s) => s >= threshold),
    labels,
  );
}
