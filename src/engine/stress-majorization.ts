import type { Vec3 } from './types.js';

/** Metric SMACOF rounds (targets = scaled D), then non-metric rounds (targets = monotone fit). */
const METRIC_ITERATIONS = 30;
const ORDINAL_ITERATIONS = 150;
/** Added to every target so that two agents at distance D = 0 still get distinct points. */
const SEPARATION = 0.02;

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
 * Pool-adjacent-violators: the non-decreasing sequence closest (least squares) to `values`.
 * Used to fit distances monotonically to the order of D (Kruskal's non-metric MDS).
 */
export function isotonic(values: ArrayLike<number>): Float64Array {
  const n = values.length;
  const sums = new Float64Array(n);
  const counts = new Int32Array(n);
  let blocks = 0;
  for (let i = 0; i < n; i++) {
    sums[blocks] = values[i]!;
    counts[blocks] = 1;
    blocks++;
    while (blocks > 1 && sums[blocks - 2]! / counts[blocks - 2]! > sums[blocks - 1]! / counts[blocks - 1]!) {
      sums[blocks - 2]! += sums[blocks - 1]!;
      counts[blocks - 2]! += counts[blocks - 1]!;
      blocks--;
    }
  }
  const fit = new Float64Array(n);
  let at = 0;
  for (let b = 0; b < blocks; b++) {
    const mean = sums[b]! / counts[b]!;
    for (let k = 0; k < counts[b]!; k++) fit[at++] = mean;
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
export function stressMajorization(start: readonly Vec3[], target: Float64Array): Vec3[] {
  const n = start.length;
  if (n < 2) return start.map((p) => [p[0], p[1], p[2]]);
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
  for (let iteration = 0; iteration < METRIC_ITERATIONS; iteration++) x = guttman(x, n, metric);

  // Pairs in the order of D, once; ties in D (blocks) are re-ordered by current distance each round.
  const pairs: [number, number][] = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) pairs.push([i, j]);
  pairs.sort((p, q) => target[p[0] * n + p[1]]! - target[q[0] * n + q[1]]!);
  const m = pairs.length;
  const blockStart = new Int32Array(m);
  for (let k = 1; k < m; k++) {
    const same = target[pairs[k]![0] * n + pairs[k]![1]] === target[pairs[k - 1]![0] * n + pairs[k - 1]![1]];
    blockStart[k] = same ? blockStart[k - 1]! : k;
  }
  const fitted = new Float64Array(n * n);
  const d = new Float64Array(m);
  for (let iteration = 0; iteration < ORDINAL_ITERATIONS; iteration++) {
    for (let k = 0; k < m; k++) d[k] = distance(x, pairs[k]![0], pairs[k]![1]);
    for (let k = 0; k < m; ) {
      let end = k + 1;
      while (end < m && blockStart[end] === k) end++;
      if (end - k > 1) {
        const block = pairs.slice(k, end).map((pair, o) => ({ pair, d: d[k + o]! })).sort((p, q) => p.d - q.d);
        block.forEach((item, o) => {
          pairs[k + o] = item.pair;
          d[k + o] = item.d;
        });
      }
      k = end;
    }
    const fit = isotonic(d);
    // Keep the overall spread: rescale the fit to the sum of squares of the metric targets.
    let fitSquares = 0;
    for (let k = 0; k < m; k++) fitSquares += fit[k]! * fit[k]!;
    const norm = fitSquares > 0 ? Math.sqrt((scale * scale * den) / fitSquares) : 1;
    for (let k = 0; k < m; k++) {
      const [i, j] = pairs[k]!;
      fitted[i * n + j] = fitted[j * n + i] = Math.max(fit[k]! * norm, scale * SEPARATION);
    }
    x = guttman(x, n, fitted);
  }
  // The transform centres the layout on the origin; put it back where the centroids were.
  const shift = [0, 1, 2].map((k) => start.reduce((s, p) => s + p[k]!, 0) / n - x.reduce((s, v, idx) => (idx % 3 === k ? s + v : s), 0) / n);
  return start.map((_, i) => [x[3 * i]! + shift[0]!, x[3 * i + 1]! + shift[1]!, x[3 * i + 2]! + shift[2]!]);
}
