import type { GraphIndex } from './graph-index.js';
import type { Vec3 } from './types.js';

/** How much each deeper path component contributes: component i adds a unit vector × SCALE^i. */
const SCALE = 0.5;

/** FNV-1a, 32 bit: a deterministic hash that is the same on every machine and every run. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A unit vector drawn uniformly on the sphere from a seed (mulberry32 for the two draws). */
export function unitVector(seed: number): Vec3 {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const z = 2 * next() - 1;
  const phi = 2 * Math.PI * next();
  const r = Math.sqrt(Math.max(0, 1 - z * z));
  return [r * Math.cos(phi), r * Math.sin(phi), z];
}

interface PrefixPoint {
  readonly point: Vec3;
  readonly depth: number;
}

function prefixPoint(path: string, cache: Map<string, PrefixPoint>): PrefixPoint {
  const cached = cache.get(path);
  if (cached !== undefined) return cached;
  const cut = path.lastIndexOf('/');
  const parent = cut < 0 ? { point: [0, 0, 0] as Vec3, depth: 0 } : prefixPoint(path.slice(0, cut), cache);
  const depth = parent.depth + 1;
  const u = unitVector(hashString(path));
  const f = SCALE ** depth;
  const p = parent.point;
  const entry = { point: [p[0] + u[0] * f, p[1] + u[1] * f, p[2] + u[2] * f] as Vec3, depth };
  cache.set(path, entry);
  return entry;
}

/**
 * Coordinate of a path: the sum over its prefixes p_1 … p_n ("src", "src/engine", …) of
 * unitVector(hash(p_i)) · SCALE^i. Two files sharing a k-component prefix share every term up
 * to k, and the rest is at most Σ_{i>k} 2·SCALE^i away: shared prefixes ⇒ nearby points.
 */
export function pathCoordinate(path: string, cache: Map<string, PrefixPoint> = new Map()): Vec3 {
  return prefixPoint(path, cache).point;
}

/**
 * Path coordinates for every file of the graph and every given file, then ONE averaging step
 * toward the dependency neighbours: c'_f = (1 − pull) · c_f + pull · mean(c_n, n adjacent to f).
 * Files outside the graph keep their path coordinate. Keys come out sorted (deterministic).
 */
export function fileCoordinates(files: Iterable<string>, graph: GraphIndex, pull: number): Map<string, Vec3> {
  const cache = new Map<string, PrefixPoint>();
  const n = graph.names.length;
  const base = new Float64Array(3 * n);
  graph.names.forEach((name, id) => {
    base.set(pathCoordinate(name, cache), 3 * id);
  });
  const result = new Map<string, Vec3>();
  const names = [...graph.names];
  for (const file of files) if (!graph.ids.has(file) && !result.has(file)) result.set(file, pathCoordinate(file, cache));
  for (let id = 0; id < n; id++) {
    const start = graph.offsets[id]!;
    const end = graph.offsets[id + 1]!;
    const x = base[3 * id]!;
    const y = base[3 * id + 1]!;
    const z = base[3 * id + 2]!;
    if (end === start || pull <= 0) {
      result.set(names[id]!, [x, y, z]);
      continue;
    }
    let mx = 0;
    let my = 0;
    let mz = 0;
    for (let k = start; k < end; k++) {
      const j = 3 * graph.neighbours[k]!;
      mx += base[j]!;
      my += base[j + 1]!;
      mz += base[j + 2]!;
    }
    const m = end - start;
    result.set(names[id]!, [(1 - pull) * x + (pull * mx) / m, (1 - pull) * y + (pull * my) / m, (1 - pull) * z + (pull * mz) / m]);
  }
  return new Map([...result].sort((p, q) => (p[0] < q[0] ? -1 : p[0] > q[0] ? 1 : 0)));
}

/**
 * Where inside its file an entry sits: a small offset along a per-file direction, growing with
 * the mean line of its ranges (m / (m + 200)), at the scale of the file's own path term. Two agents
 * in the same file on distant lines thus get distinct points; a whole-file entry sits at the file.
 */
export function lineOffset(path: string, meanLine: number | null): Vec3 {
  if (meanLine === null || !(meanLine > 0)) return [0, 0, 0];
  const u = unitVector(hashString(`${path}\u0000lines`));
  const depth = path.split('/').length;
  const f = SCALE ** depth * (meanLine / (meanLine + 200));
  return [u[0] * f, u[1] * f, u[2] * f];
}
