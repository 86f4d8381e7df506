/**
 * Helpers of the agent layout (stress-majorization.ts): a classical-MDS start and the rank
 * agreement used to choose between layouts. Pure math, deterministic.
 */
import type { Vec3 } from './types.js';

/** Average ranks (ties share their mean rank). */
function ranks(values: Float64Array): Float64Array {
  const order = Array.from(values.keys()).sort((a, b) => values[a]! - values[b]!);
  const result = new Float64Array(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && values[order[j + 1]!] === values[order[i]!]) j++;
    for (let k = i; k <= j; k++) result[order[k]!] = (i + j) / 2;
    i = j + 1;
  }
  return result;
}

/** Spearman ρ between the layout's pairwise distances and D (the quantity the layout must keep). */
export function rankAgreement(layout: readonly Vec3[], target: Float64Array, n: number): number {
  const m = (n * (n - 1)) / 2;
  const e = new Float64Array(m);
  const d = new Float64Array(m);
  let k = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++, k++) {
      const p = layout[i]!;
      const q = layout[j]!;
      e[k] = Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
      d[k] = target[i * n + j]!;
    }
  }
  const re = ranks(e);
  const rd = ranks(d);
  const mean = (m - 1) / 2;
  let num = 0;
  let se = 0;
  let sd = 0;
  for (let t = 0; t < m; t++) {
    num += (re[t]! - mean) * (rd[t]! - mean);
    se += (re[t]! - mean) ** 2;
    sd += (rd[t]! - mean) ** 2;
  }
  return se > 0 && sd > 0 ? num / Math.sqrt(se * sd) : 0;
}

/**
 * Classical MDS: the top three eigenvectors of B = −½ J D² J (power iteration with deflation,
 * deterministic start), scaled by √λ, then scaled to the spread of `reference`.
 */
export function classicalMds(target: Float64Array, n: number, reference: readonly Vec3[], separation: number): Vec3[] {
  const b = new Float64Array(n * n);
  const row = new Float64Array(n);
  let all = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const sq = i === j ? 0 : (target[i * n + j]! + separation) ** 2;
      b[i * n + j] = sq;
      row[i]! += sq / n;
    }
    all += row[i]! / n;
  }
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) b[i * n + j] = -0.5 * (b[i * n + j]! - row[i]! - row[j]! + all);
  const units: Float64Array[] = [];
  const axes: Float64Array[] = [];
  for (let axis = 0; axis < 3; axis++) {
    let v = Float64Array.from({ length: n }, (_, i) => Math.sin(1 + i * (axis + 1.618)));
    let lambda = 0;
    for (let iteration = 0; iteration < 100; iteration++) {
      for (const u of units) {
        let dot = 0;
        for (let i = 0; i < n; i++) dot += u[i]! * v[i]!;
        for (let i = 0; i < n; i++) v[i]! -= dot * u[i]!;
      }
      const next = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        let sum = 0;
        for (let j = 0; j < n; j++) sum += b[i * n + j]! * v[j]!;
        next[i] = sum;
      }
      const norm = Math.hypot(...next);
      if (!(norm > 1e-12)) break;
      lambda = norm;
      v = next.map((x) => x / norm);
    }
    units.push(v);
    axes.push(v.map((x) => x * Math.sqrt(lambda)));
  }
  const points: Vec3[] = Array.from({ length: n }, (_, i) => [axes[0]![i]!, axes[1]![i]!, axes[2]![i]!]);
  const spread = (ps: readonly Vec3[]): number => {
    const c = [0, 1, 2].map((k) => ps.reduce((s, p) => s + p[k]!, 0) / ps.length);
    return Math.sqrt(ps.reduce((s, p) => s + (p[0] - c[0]!) ** 2 + (p[1] - c[1]!) ** 2 + (p[2] - c[2]!) ** 2, 0) / ps.length);
  };
  const factor = spread(points) > 0 ? spread(reference) / spread(points) : 1;
  return points.map((p) => [p[0] * factor, p[1] * factor, p[2] * factor]);
}
