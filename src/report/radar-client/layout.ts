/**
 * Maps engine coordinates to scene coordinates. The engine's scale is its own business, so every
 * point is centred and scaled to a fixed radius; the mapping is computed once over all frames so
 * stepping through a story never makes the picture jump.
 */
import type { ScanResult, Vec3 } from '../../engine/types.js';

export const SCENE_RADIUS = 10;

export interface Layout {
  readonly center: Vec3;
  readonly scale: number;
}

export function computeLayout(scans: readonly ScanResult[]): Layout {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  const points: Vec3[] = [];
  for (const scan of scans) {
    points.push(...Object.values(scan.positions), ...Object.values(scan.fileCoordinates));
  }
  const finite = points.filter((p) => p.every((v) => Number.isFinite(v)));
  if (finite.length === 0) return { center: [0, 0, 0], scale: 1 };
  for (const p of finite) {
    for (let i = 0; i < 3; i++) {
      min[i] = Math.min(min[i]!, p[i]!);
      max[i] = Math.max(max[i]!, p[i]!);
    }
  }
  const center: Vec3 = [(min[0]! + max[0]!) / 2, (min[1]! + max[1]!) / 2, (min[2]! + max[2]!) / 2];
  let radius = 0;
  for (const p of finite) radius = Math.max(radius, Math.hypot(p[0] - center[0], p[1] - center[1], p[2] - center[2]));
  return { center, scale: radius > 1e-9 ? SCENE_RADIUS / radius : 1 };
}

/** Whether new data escaped the layout (live mode re-fits only then, so motion stays visible). */
export function outgrows(layout: Layout, scan: ScanResult): boolean {
  const points = [...Object.values(scan.positions), ...Object.values(scan.fileCoordinates)];
  return points.some((p) => {
    const [x, y, z] = toScene(layout, p);
    return Math.hypot(x, y, z) > SCENE_RADIUS * 1.6;
  });
}

export function toScene(layout: Layout, p: Vec3): [number, number, number] {
  const s = layout.scale;
  const v: [number, number, number] = [(p[0] - layout.center[0]) * s, (p[1] - layout.center[1]) * s, (p[2] - layout.center[2]) * s];
  return v.map((x) => (Number.isFinite(x) ? x : 0)) as [number, number, number];
}
