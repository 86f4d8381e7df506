/**
 * Maps engine coordinates to scene coordinates. The engine's scale is its own business, so every
 * point is centred and scaled to a fixed radius; the mapping is computed once over all frames so
 * stepping through a story never makes the picture jump.
 */
import type { ScanResult, Vec3 } from '../../engine/types.js';
import { type Point2, spreadApart } from './spread-apart.js';

export const SCENE_RADIUS = 10;

/** Where the camera starts and what it looks at (src/report/radar-client/scene.ts starts there). */
export const DEFAULT_VIEW = {
  eye: [SCENE_RADIUS * 1.2, SCENE_RADIUS * 0.75, SCENE_RADIUS * 1.7] as Vec3,
  target: [0, -SCENE_RADIUS * 0.15, 0] as Vec3,
  fovDegrees: 50,
};

/**
 * The least distance between two agents as seen from the default view, in scene units at the
 * depth of the view's target: 2.6 units is about 75 px on a 600 px high window, room for both
 * markers with their halos (0.62 units each, 0.78 pulsing) and a visible piece of the link.
 */
export const MIN_AGENT_SEPARATION = 2.6;

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

/**
 * Where each agent is drawn: its scene position, moved as little as needed so that, seen from the
 * default view, no two agents are closer than MIN_AGENT_SEPARATION. The spreading happens in the
 * view's image plane (perspective included) and keeps every agent's depth, so from the default
 * view the separation is exact; after a rotation the agents stay apart in space, as they were moved.
 * An agent on the line of another pair's advisory is moved off it.
 */
export function agentPlaces(layout: Layout, positions: ScanResult['positions'], links: ScanResult['links'] = []): Map<string, [number, number, number]> {
  const ids = Object.keys(positions).sort();
  const index = new Map(ids.map((id, i) => [id, i]));
  // The advisory lines must not run under a third agent's marker; clear pairs are a faint web.
  const lines = links.flatMap((link): [number, number][] => {
    const [a, b] = [index.get(link.a), index.get(link.b)];
    return link.level !== 'clear' && a !== undefined && b !== undefined ? [[a, b]] : [];
  });
  const view = viewBasis();
  const depthAtTarget = dot(sub(DEFAULT_VIEW.target, DEFAULT_VIEW.eye), view.forward);
  const scene = ids.map((id) => toScene(layout, positions[id]!));
  const camera = scene.map((at) => {
    const c = sub(at, DEFAULT_VIEW.eye);
    // Points behind or at the eye cannot be projected: treat them as at the nearest sane depth.
    const depth = Math.max(1, dot(c, view.forward));
    return { c, depth };
  });
  const onScreen: Point2[] = camera.map(({ c, depth }) => [(dot(c, view.right) * depthAtTarget) / depth, (dot(c, view.up) * depthAtTarget) / depth]);
  const spread = spreadApart(onScreen, MIN_AGENT_SEPARATION, lines);
  const places = new Map<string, [number, number, number]>();
  ids.forEach((id, i) => {
    const { c, depth } = camera[i]!;
    // An agent that did not have to move stays exactly where the layout put it.
    if (spread[i]![0] === onScreen[i]![0] && spread[i]![1] === onScreen[i]![1]) {
      places.set(id, scene[i]!);
      return;
    }
    const du = ((spread[i]![0] - onScreen[i]![0]) * depth) / depthAtTarget;
    const dv = ((spread[i]![1] - onScreen[i]![1]) * depth) / depthAtTarget;
    const at = [0, 1, 2].map((k) => DEFAULT_VIEW.eye[k]! + c[k]! + view.right[k]! * du + view.up[k]! * dv);
    places.set(id, at as [number, number, number]);
  });
  return places;
}

/** The default camera's right, up and forward directions (world up is +y, as in three.js). */
function viewBasis(): { right: Vec3; up: Vec3; forward: Vec3 } {
  const forward = unit(sub(DEFAULT_VIEW.target, DEFAULT_VIEW.eye));
  const right = unit(cross(forward, [0, 1, 0]));
  return { right, up: cross(right, forward), forward };
}

function sub(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function unit(a: Vec3): Vec3 {
  const length = Math.hypot(a[0], a[1], a[2]);
  return [a[0] / length, a[1] / length, a[2] / length];
}

export function toScene(layout: Layout, p: Vec3): [number, number, number] {
  const s = layout.scale;
  const v: [number, number, number] = [(p[0] - layout.center[0]) * s, (p[1] - layout.center[1]) * s, (p[2] - layout.center[2]) * s];
  return v.map((x) => (Number.isFinite(x) ? x : 0)) as [number, number, number];
}
