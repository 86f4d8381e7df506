/**
 * Threshold choice on training data. τ_RA: the lowest score whose flag still reaches the target
 * precision (so RA recall is as high as the precision allows); τ_TA: the highest score below τ_RA
 * whose flag reaches a recall target (a TA only shares intent, so it is cheap; missing a collision
 * is not). Maximising F_β instead put τ_TA a hair below τ_RA on this data: no TA band at all.
 */

export interface ThresholdPick {
  readonly tau: number;
  readonly precision: number;
  readonly recall: number;
  readonly flagged: number;
}

interface Step {
  readonly score: number;
  readonly flagged: number;
  readonly tp: number;
}

/** Cumulative counts when flagging `score ≥ s`, for every distinct score s, highest first. */
function steps(scores: readonly number[], labels: readonly boolean[]): Step[] {
  const order = scores.map((s, i) => ({ s, y: labels[i]! })).sort((x, y) => y.s - x.s);
  const out: Step[] = [];
  let flagged = 0;
  let tp = 0;
  for (let k = 0; k < order.length; k += 1) {
    flagged += 1;
    if (order[k]!.y) tp += 1;
    if (k + 1 === order.length || order[k + 1]!.s !== order[k]!.s) out.push({ score: order[k]!.s, flagged, tp });
  }
  return out;
}

/** Lowest positive τ with precision ≥ `minPrecision` and at least `minFlags` flags; null if none. */
export function pickRaThreshold(scores: readonly number[], labels: readonly boolean[], minPrecision: number, minFlags = 5): ThresholdPick | null {
  const positives = labels.filter(Boolean).length;
  let best: ThresholdPick | null = null;
  for (const step of steps(scores, labels)) {
    if (step.score <= 0) break;
    if (step.flagged >= minFlags && step.tp / step.flagged >= minPrecision) {
      best = { tau: step.score, precision: step.tp / step.flagged, recall: positives ? step.tp / positives : 0, flagged: step.flagged };
    }
  }
  return best;
}

/** τ in (0, below) maximising F_β; null when no positive score lies below `below`. */
export function pickTaThreshold(scores: readonly number[], labels: readonly boolean[], below: number, beta = 2): ThresholdPick | null {
  const positives = labels.filter(Boolean).length;
  const b2 = beta * beta;
  let best: (ThresholdPick & { f: number }) | null = null;
  for (const step of steps(scores, labels)) {
    if (step.score <= 0) break;
    if (step.score >= below) continue;
    const precision = step.tp / step.flagged;
    const recall = positives ? step.tp / positives : 0;
    const f = precision + recall === 0 ? 0 : ((1 + b2) * precision * recall) / (b2 * precision + recall);
    if (!best || f > best.f) best = { tau: step.score, precision, recall, flagged: step.flagged, f };
  }
  return best && { tau: best.tau, precision: best.precision, recall: best.recall, flagged: best.flagged };
}

/** Highest τ in (0, below) with recall ≥ `minRecall`; when none reaches it, the F_2-best τ below. */
export function pickTaForRecall(scores: readonly number[], labels: readonly boolean[], below: number, minRecall: number): ThresholdPick | null {
  const positives = labels.filter(Boolean).length;
  for (const step of steps(scores, labels)) {
    if (step.score <= 0) break;
    if (step.score >= below) continue;
    const recall = positives ? step.tp / positives : 0;
    if (recall >= minRecall) return { tau: step.score, precision: step.tp / step.flagged, recall, flagged: step.flagged };
  }
  return pickTaThreshold(scores, labels, below);
}

/**
 * Lowest positive τ whose flag reaches `minPrecision` in EVERY group (repository) that it flags,
 * with at least `minFlags` flags in all. Pooled precision lets a high-base-rate repository carry
 * a threshold that is poor elsewhere; the per-group rule is what transfers to an unseen one.
 */
export function pickRaThresholdByGroup(
  scores: readonly number[],
  labels: readonly boolean[],
  groups: readonly string[],
  minPrecision: number,
  minFlags = 5,
): ThresholdPick | null {
  const names = [...new Set(groups)];
  const groupOf = groups.map((g) => names.indexOf(g));
  const flagged = new Array<number>(names.length).fill(0);
  const tp = new Array<number>(names.length).fill(0);
  const positives = labels.filter(Boolean).length;
  const order = scores.map((_, i) => i).sort((x, y) => scores[y]! - scores[x]!);
  let best: ThresholdPick | null = null;
  let total = 0;
  let hits = 0;
  for (let k = 0; k < order.length; k += 1) {
    const i = order[k]!;
    if (scores[i]! <= 0) break;
    flagged[groupOf[i]!]! += 1;
    total += 1;
    if (labels[i]) {
      tp[groupOf[i]!]! += 1;
      hits += 1;
    }
    if (k + 1 < order.length && scores[order[k + 1]!] === scores[i]) continue; // ties flag together
    const everywhere = flagged.every((f, g) => f === 0 || tp[g]! / f >= minPrecision);
    if (everywhere && total >= minFlags) best = { tau: scores[i]!, precision: hits / total, recall: positives ? hits / positives : 0, flagged: total };
  }
  return best;
}
