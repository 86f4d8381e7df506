import { classicalMds, rankAgreement } from './classical-mds.js';
import type { Vec3 } from './types.js';

/** Metric SMACOF rounds (targets = scaled D), then non-metric rounds (targets = monotone fit). */
const METRIC_ITERATIONS = 30;
const ORDINAL_ITERATIONS = 150;
/**
 * A round costs n² pair terms. Up to this many agents every round runs; beyond, the rounds shrink
 * with 1/n² so a layout of 200 or 1,000 agents costs what 100 cost (a scan of 1,000 agents must stay
 * within seconds; a radar of that many points is read for its clusters, not its last digit).
 */
const FULL_ROUNDS_UP_TO = 100;

function rounds(n: number, full: number, least: number): number {
  const share = Math.min(1, (FULL_ROUNDS_UP_TO * FULL_ROUNDS_UP_TO) / (n * n));
  return Math.max(least, Math.round(full * share));
}
/** Added to every target so that two agents at distance D = 0 still get distinct points. */
export const SEPARATION = 0.02;

function distance(x: Float64Array, i: number, j: number): number {
  const dx = x[3 * i]! - x[3 * j]!;
  const dy = x[3 * i + 1]! - x[3 * j + 1]!;
  const dz = x[3 * i + 2]! - x[3 * j + 2]!;
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}

/** One Guttman transform with unit weights: x'_i = (1/n) Σ_j (δ_ij / d_ij)(x_i − x_j); δ row-major n × n. */
function guttman(x: Float64Array, n: number, target: Float64Array): Float64Array {
  const next = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    let ax = 0;
    let ay = 0;
    let az = 0;
    const xi = x[3 * i]!;
    const yi = x[3 * i + 1]!;
    const zi = x[3 * i + 2]!;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const dx = xi - x[3 * j]!;
      const dy = yi - x[3 * j + 1]!;
      const dz = zi - x[3 * j + 2]!;
      const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
      const b = d > 1e-12 ? target[i * n + j]! / d : 0; // coincident points exert no force
      ax += b * dx;
      ay += b * dy;
      az += b * dz;
    }
    next[3 * i] = ax / n;
    next[3 * i + 1] = ay / n;
    next[3 * i + 2] = az / n;
  }
  return next;
}

/**
 * Pool-adjacent-violators: the non-decreasing sequence closest (weighted least squares) to the
 * block means `sums[b] / counts[b]` (counts default to 1: then `sums` are plain values). Used to
 * fit distances monotonically to the order of D (Kruskal's non-metric MDS). One value per block.
 */
export function isotonic(sums: ArrayLike<number>, counts?: ArrayLike<number>): Float64Array {
  const n = sums.length;
  const s = new Float64Array(n);
  const c = new Float64Array(n);
  const first = new Int32Array(n);
  let blocks = 0;
  for (let i = 0; i < n; i++) {
    s[blocks] = sums[i]!;
    c[blocks] = counts ? counts[i]! : 1;
    first[blocks] = i;
    blocks++;
    while (blocks > 1 && s[blocks - 2]! / c[blocks - 2]! > s[blocks - 1]! / c[blocks - 1]!) {
      s[blocks - 2]! += s[blocks - 1]!;
      c[blocks - 2]! += c[blocks - 1]!;
      blocks--;
    }
  }
  const fit = new Float64Array(n);
  for (let b = 0; b < blocks; b++) {
    const mean = s[b]! / c[b]!;
    const end = b + 1 < blocks ? first[b + 1]! : n;
    for (let k = first[b]!; k < end; k++) fit[k] = mean;
  }
  return fit;
}

/**
 * Stress majorization (SMACOF) of agent positions toward target distances D (row-major n × n,
 * symmetric), starting from `start` so the layout stays near the centroids. First metric rounds
 * with D scaled (least squares) to the starting spread, then ordinal rounds whose targets are the
 * isotonic regression of the current distances on the order of D: what must be preserved is the
 * ORDER of D, which three dimensions cannot reproduce metrically for many near-equal distances.
 */
function smacofFrom(start: readonly Vec3[], target: Float64Array): Vec3[] {
  const n = start.length;
  let x: Float64Array = new Float64Array(start.flatMap((p) => [p[0], p[1], p[2]]));
  const delta = (i: number, j: number): number => target[i * n + j]! + SEPARATION;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      num += distance(x, i, j) * delta(i, j);
      den += delta(i, j) ** 2;
    }
  }
  const scale = num > 0 && den > 0 ? num / den : 1;
  const metric = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j) metric[i * n + j] = scale * delta(i, j);
  for (let iteration = 0, last = rounds(n, METRIC_ITERATIONS, 3); iteration < last; iteration++) x = guttman(x, n, metric);

  // Pairs in the order of D, once, grouped in blocks of equal D. Ties are kept tied (Kruskal's
  // secondary approach): a block gets one fitted distance, the mean of its pairs' distances under
  // the monotone fit. Pairs that D cannot tell apart are not spread apart, and no per-round sort.
  const order: [number, number][] = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) order.push([i, j]);
  order.sort((p, q) => target[p[0] * n + p[1]]! - target[q[0] * n + q[1]]!);
  const m = order.length;
  const pi = Int32Array.from(order, (p) => p[0]);
  const pj = Int32Array.from(order, (p) => p[1]);
  const blockOf = new Int32Array(m);
  let blocks = 0;
  for (let k = 0; k < m; k++) {
    if (k > 0 && target[pi[k]! * n + pj[k]!] !== target[pi[k - 1]! * n + pj[k - 1]!]) blocks++;
    blockOf[k] = blocks;
  }
  blocks++;
  const sums = new Float64Array(blocks);
  const counts = new Float64Array(blocks);
  for (let k = 0; k < m; k++) counts[blockOf[k]!]! += 1;
  const fitted = new Float64Array(n * n);
  for (let iteration = 0, last = rounds(n, ORDINAL_ITERATIONS, 6); iteration < last; iteration++) {
    sums.fill(0);
    for (let k = 0; k < m; k++) sums[blockOf[k]!]! += distance(x, pi[k]!, pj[k]!);
    const fit = isotonic(sums, counts);
    // Keep the overall spread: rescale the fit to the sum of squares of the metric targets.
    let fitSquares = 0;
    for (let b = 0; b < blocks; b++) fitSquares += counts[b]! * fit[b]! * fit[b]!;
    const norm = fitSquares > 0 ? Math.sqrt((scale * scale * den) / fitSquares) : 1;
    for (let k = 0; k < m; k++) {
      const i = pi[k]!;
      const j = pj[k]!;
      fitted[i * n + j] = fitted[j * n + i] = Math.max(fit[blockOf[k]!]! * norm, scale * SEPARATION);
    }
    x = guttman(x, n, fitted);
  }
  return Array.from({ length: n }, (_, i) => [x[3 * i]!, x[3 * i + 1]!, x[3 * i + 2]!] as Vec3);
}

/**
 * Stress majorization toward D from two starts, the centroids and classical MDS (Torgerson) of D,
 * keeping the layout whose distances follow the order of D best (Spearman ρ). From the centroids
 * alone SMACOF often stalls in a poor local optimum (ρ 0.72–0.85 across generated airspaces);
 * classical MDS places the clusters globally first.
 */
export function stressMajorization(start: readonly Vec3[], target: Float64Array): Vec3[] {
  const n = start.length;
  if (n < 2) return start.map((p) => [p[0], p[1], p[2]]);
  const candidates = [smacofFrom(start, target), smacofFrom(classicalMds(target, n, start, SEPARATION), target)];
  const scores = candidates.map((layout) => rankAgreement(layout, target, n));
  const x = candidates[scores[1]! > scores[0]! ? 1 : 0]!;
  // The transform centres the layout on the origin; put it back where the centroids were.
  const shift = [0, 1, 2].map((k) => start.reduce((s, p) => s + p[k]!, 0) / n - x.reduce((s, p) => s + p[k]!, 0) / n);
  return x.map((p) => [p[0] + shift[0]!, p[1] + shift[1]!, p[2] + shift[2]!]);
}
