import { SEPARATION } from './stress-majorization.js';
import type { Vec3 } from './types.js';

/** Target distances of some pairs only: pair k joins agents `i[k]` and `j[k]` at distance `d[k]` (D = 1 − R). */
export interface SparseTargets {
  readonly i: Int32Array;
  readonly j: Int32Array;
  readonly d: Float64Array;
}

const ROUNDS = 30;

/**
 * Stress majorization over the listed pairs only (the localized update of Gansner, Koren and
 * North's "Graph drawing by stress majorization", weights δ⁻²): memory and time per round are
 * O(n + pairs), not O(n²), for airspaces of a thousand agents where only pairs with contact are
 * scored. Targets are scaled (least squares) to the spread of the starting points, as in the
 * dense layout; an agent with no listed pair keeps its starting point (its centroid).
 */
export function sparseStress(start: readonly Vec3[], targets: SparseTargets): Vec3[] {
  const n = start.length;
  const x = new Float64Array(start.flatMap((p) => [p[0], p[1], p[2]]));
  const m = targets.d.length;
  if (n < 2 || m === 0) return start.map((p) => [p[0], p[1], p[2]]);
  const dist = (a: number, b: number): number => Math.hypot(x[3 * a]! - x[3 * b]!, x[3 * a + 1]! - x[3 * b + 1]!, x[3 * a + 2]! - x[3 * b + 2]!);
  let num = 0;
  let den = 0;
  for (let k = 0; k < m; k++) {
    const delta = targets.d[k]! + SEPARATION;
    num += dist(targets.i[k]!, targets.j[k]!) * delta;
    den += delta * delta;
  }
  const scale = num > 0 && den > 0 ? num / den : 1;
  // Pairs by agent (both directions), as offsets into one array: CSR.
  const degree = new Int32Array(n + 1);
  for (let k = 0; k < m; k++) {
    degree[targets.i[k]! + 1]!++;
    degree[targets.j[k]! + 1]!++;
  }
  for (let a = 0; a < n; a++) degree[a + 1]! += degree[a]!;
  const other = new Int32Array(2 * m);
  const target = new Float64Array(2 * m);
  const fill = degree.slice(0, n);
  for (let k = 0; k < m; k++) {
    const delta = scale * (targets.d[k]! + SEPARATION);
    const a = targets.i[k]!;
    const b = targets.j[k]!;
    other[fill[a]!] = b;
    target[fill[a]!++] = delta;
    other[fill[b]!] = a;
    target[fill[b]!++] = delta;
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (let a = 0; a < n; a++) {
      let sx = 0;
      let sy = 0;
      let sz = 0;
      let sw = 0;
      for (let e = degree[a]!; e < degree[a + 1]!; e++) {
        const b = other[e]!;
        const delta = target[e]!;
        const w = 1 / (delta * delta);
        const d = dist(a, b);
        const f = d > 1e-12 ? delta / d : 0; // coincident points exert no force
        sx += w * (x[3 * b]! + f * (x[3 * a]! - x[3 * b]!));
        sy += w * (x[3 * b + 1]! + f * (x[3 * a + 1]! - x[3 * b + 1]!));
        sz += w * (x[3 * b + 2]! + f * (x[3 * a + 2]! - x[3 * b + 2]!));
        sw += w;
      }
      if (sw === 0) continue;
      x[3 * a] = sx / sw;
      x[3 * a + 1] = sy / sw;
      x[3 * a + 2] = sz / sw;
    }
  }
  return Array.from({ length: n }, (_, a) => [x[3 * a]!, x[3 * a + 1]!, x[3 * a + 2]!] as Vec3);
}
