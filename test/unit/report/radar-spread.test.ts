import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import type { Vec3 } from '../../../src/engine/types.js';
import { agentPlaces, DEFAULT_VIEW, MIN_AGENT_SEPARATION, computeLayout, toScene } from '../../../src/report/radar-client/layout.js';
import { type Point2, spreadApart } from '../../../src/report/radar-client/spread-apart.js';
import { rng } from '../engine/generate-airspace.js';
import { scanOf } from '../../e2e/radar-fixture.js';

const distance = (p: Point2, q: Point2): number => Math.hypot(p[0] - q[0], p[1] - q[1]);

/**
 * Random scenes: `n` points in a square of side `side`, some of them exactly on top of another
 * (collided agents); with `pairsOnly`, at most two on one spot.
 */
function scenes(seed: number, count: number, side: () => number, pairsOnly = false): { points: Point2[]; side: number }[] {
  const random = rng(seed);
  return Array.from({ length: count }, () => {
    const n = 2 + Math.floor(random() * 30);
    const s = side();
    const points: Point2[] = [];
    const alone: number[] = [];
    for (let i = 0; i < n; i++) {
      const pool = pairsOnly ? alone : points.map((_, k) => k);
      if (pool.length > 0 && random() < 0.3) {
        const k = Math.floor(random() * pool.length);
        points.push(points[pool[k]!]!);
        if (pairsOnly) alone.splice(k, 1);
      } else {
        alone.push(points.length);
        points.push([(random() - 0.5) * s, (random() - 0.5) * s]);
      }
    }
    return { points, side: s };
  });
}

/** Spearman's rank correlation of two equally long lists. */
function rankCorrelation(x: readonly number[], y: readonly number[]): number {
  const ranks = (v: readonly number[]): number[] => {
    const order = v.map((value, i) => [value, i] as const).sort((p, q) => p[0] - q[0]);
    const r = new Array<number>(v.length);
    order.forEach(([, i], rank) => {
      r[i] = rank;
    });
    return r;
  };
  const rx = ranks(x);
  const ry = ranks(y);
  const n = x.length;
  const d2 = rx.reduce((sum, r, i) => sum + (r - ry[i]!) ** 2, 0);
  return 1 - (6 * d2) / (n * (n * n - 1));
}

describe('spreadApart (markers kept apart on screen)', () => {
  const random = rng(11);
  const everyDensity = scenes(1, 200, () => 0.3 + random() * 12).map(({ points }) => ({ points, out: spreadApart(points, 1) }));

  it('leaves no two points closer than the minimum, however crowded', () => {
    // One expect per scene: vitest's expect costs more than the check itself.
    for (const { points, out } of everyDensity) {
      let closest = Infinity;
      for (let i = 0; i < out.length; i++) {
        for (let j = i + 1; j < out.length; j++) closest = Math.min(closest, distance(out[i]!, out[j]!));
      }
      expect([out.length, closest >= 1], JSON.stringify(points)).toEqual([points.length, true]);
    }
  });

  it('moves nothing when every pair is already far enough apart', () => {
    const points: Point2[] = [
      [0, 0],
      [1, 0],
      [0, 1.5],
      [-4, 2],
    ];
    expect(spreadApart(points, 1)).toEqual(points);
  });

  it('moves each point at most about the size of the crowd it was in', () => {
    for (const { points, out } of everyDensity) {
      const farthest = Math.max(...out.map((p, i) => distance(p, points[i]!)));
      expect(farthest).toBeLessThanOrEqual(1.5 * Math.sqrt(points.length));
    }
  });

  it('where there is room, keeps the picture: no far pair changes sides, pairwise distances keep their order', () => {
    // Collided pairs (two agents on one spot) in a plane with room for everyone.
    const sparse = scenes(2, 300, () => 1, true).map(({ points }) => {
      // Room for every point: at least 4 min² of area per point.
      const side = 2 * Math.sqrt(points.length) * (1 + random());
      return points.map(([x, y]) => [x * side, y * side] as const);
    });
    let farPairs = 0;
    const swapped: string[] = [];
    const correlations: number[] = [];
    for (const points of sparse) {
      const unitSquare = points.map(([x, y]) => [x, y] as Point2);
      const out = spreadApart(unitSquare, 1);
      const before: number[] = [];
      const after: number[] = [];
      for (let i = 0; i < out.length; i++) {
        for (let j = i + 1; j < out.length; j++) {
          const p = unitSquare[i]!;
          const q = unitSquare[j]!;
          // Pairs that were too close had to change; the others should keep their order.
          if (distance(p, q) < 1) continue;
          before.push(distance(p, q));
          after.push(distance(out[i]!, out[j]!));
          if (distance(p, q) < 3) continue;
          farPairs += 1;
          const turned = (q[0] - p[0]) * (out[j]![0] - out[i]![0]) + (q[1] - p[1]) * (out[j]![1] - out[i]![1]);
          if (turned <= 0) swapped.push(`pair ${i}-${j} of ${JSON.stringify(unitSquare)}`);
        }
      }
      if (before.length >= 10) correlations.push(rankCorrelation(before, after));
    }
    expect(swapped).toEqual([]);
    expect(farPairs).toBeGreaterThan(1000);
    // Measured on these scenes: mean 0.975, worst 0.597 (a scene of a few points, where collided
    // pairs set vertically swapped the order of some short distances).
    expect(correlations.reduce((a, b) => a + b) / correlations.length).toBeGreaterThan(0.95);
    expect(Math.min(...correlations)).toBeGreaterThan(0.5);
  });

  it('sets three or more stacked points on a ring: no one of them lies on the line between two others', () => {
    for (const k of [3, 4, 5, 6]) {
      const out = spreadApart(
        Array.from({ length: k }, () => [1, 2] as const),
        1,
      );
      for (let i = 0; i < k; i++) {
        for (let j = i + 1; j < k; j++) {
          for (let m = 0; m < k; m++) {
            if (m === i || m === j) continue;
            // Distance of m from the segment i–j: more than a marker's half width (a quarter of the minimum).
            const [a, b, c] = [out[i]!, out[j]!, out[m]!];
            const t = Math.max(0, Math.min(1, ((c[0] - a[0]) * (b[0] - a[0]) + (c[1] - a[1]) * (b[1] - a[1])) / distance(a, b) ** 2));
            const off = distance(c, [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
            expect(off, `${k} stacked: ${m} on ${i}–${j}`).toBeGreaterThan(0.25);
          }
        }
      }
    }
  });

  it('moves a marker off an advisory line between two others (the embedding lays such trios on a line)', () => {
    // vue core, live: the ownship has RAs with both peers, who have a TA with each other; the
    // embedding put the ownship between them, on their line.
    const trio: Point2[] = [
      [0, -1.09],
      [0.06, 0],
      [0, 1.09],
    ];
    const links = [
      [0, 1],
      [1, 2],
      [0, 2],
    ] as const;
    const out = spreadApart(trio, 2.6, links);
    const [a, b, c] = [out[0]!, out[1]!, out[2]!];
    const t = ((b[0] - a[0]) * (c[0] - a[0]) + (b[1] - a[1]) * (c[1] - a[1])) / distance(a, c) ** 2;
    const off = distance(b, [a[0] + t * (c[0] - a[0]), a[1] + t * (c[1] - a[1])]);
    expect(off).toBeGreaterThanOrEqual(0.4 * 2.6);
    for (const [i, j] of links) expect(distance(out[i]!, out[j]!)).toBeGreaterThanOrEqual(2.6);
    // Without the lines to keep clear, the pushes keep them on one line.
    const [p, q, r] = spreadApart(trio, 2.6);
    expect(Math.abs((q![0] - p![0]) * (r![1] - p![1]) - (q![1] - p![1]) * (r![0] - p![0])) / distance(p!, r!)).toBeLessThan(0.4 * 2.6);
  });

  it('splits two points on exactly the same spot vertically, deterministically', () => {
    const out = spreadApart(
      [
        [3, 3],
        [3, 3],
      ],
      1,
    );
    expect(Math.abs(out[0]![0] - out[1]![0])).toBeLessThan(1e-9);
    expect(distance(out[0]!, out[1]!)).toBeGreaterThanOrEqual(1);
    expect(spreadApart([[3, 3] as const, [3, 3] as const], 1)).toEqual(out);
  });
});

describe('agentPlaces (the layout step after the embedding)', () => {
  /** The page's default camera (src/report/radar-client/scene.ts), in a 960 × 600 window. */
  const camera = new THREE.PerspectiveCamera(DEFAULT_VIEW.fovDegrees, 960 / 600, 0.05, 500);
  camera.position.set(...DEFAULT_VIEW.eye);
  camera.lookAt(new THREE.Vector3(...DEFAULT_VIEW.target));
  camera.updateMatrixWorld();
  const toPixels = (p: readonly number[]): [number, number] => {
    const v = new THREE.Vector3(p[0], p[1], p[2]).project(camera);
    return [((v.x + 1) / 2) * 960, ((1 - v.y) / 2) * 600];
  };
  const depthAtTarget = camera.position.distanceTo(new THREE.Vector3(...DEFAULT_VIEW.target));
  const pixelsPerUnit = 600 / (2 * depthAtTarget * Math.tan((DEFAULT_VIEW.fovDegrees * Math.PI) / 360));

  it('draws two collided agents (the same embedding point) apart on screen; the others stay where they were', () => {
    const general: Vec3 = [0.2, 0.1, 0.3];
    const scan = scanOf(
      [
        { id: 'fix/shared-general', at: general },
        { id: 'feat/general-helpers', at: general },
        { id: 'fix/runtime-renderer', at: [3, -1, 0] },
        { id: 'main', at: [-3, 2, 1] },
      ],
      { 'packages/shared/src/general.ts': general, 'packages/runtime-core/src/renderer.ts': [3, -1, 0], 'README.md': [-3, -3, -3] },
    );
    const layout = computeLayout([scan]);
    const places = agentPlaces(layout, scan.positions);
    const [a, b] = [toPixels(places.get('fix/shared-general')!), toPixels(places.get('feat/general-helpers')!)];
    expect(distance(a, b)).toBeGreaterThanOrEqual(MIN_AGENT_SEPARATION * pixelsPerUnit * 0.999);
    for (const id of ['fix/runtime-renderer', 'main']) expect(places.get(id)).toEqual(toScene(layout, scan.positions[id]!));
  });

  it('keeps every pair of random agents apart in the default view, and keeps each agent at its depth', () => {
    const random = rng(5);
    for (let round = 0; round < 50; round++) {
      const agents = Array.from({ length: 2 + Math.floor(random() * 12) }, (_, i) => ({
        id: `agent-${i}`,
        at: [(random() - 0.5) * 4, (random() - 0.5) * 4, (random() - 0.5) * 4] as Vec3,
      }));
      const scan = scanOf(agents, { 'a.ts': [-5, -5, -5], 'b.ts': [5, 5, 5] });
      const layout = computeLayout([scan]);
      const places = agentPlaces(layout, scan.positions);
      const forward = new THREE.Vector3();
      camera.getWorldDirection(forward);
      const depth = (p: readonly number[]): number => new THREE.Vector3(p[0], p[1], p[2]).sub(camera.position).dot(forward);
      for (const agent of agents) expect(depth(places.get(agent.id)!)).toBeCloseTo(depth(toScene(layout, agent.at)), 6);
      const pixels = agents.map((agent) => ({ p: toPixels(places.get(agent.id)!) }));
      for (let i = 0; i < pixels.length; i++) {
        for (let j = i + 1; j < pixels.length; j++) {
          // Spread in the image plane: exact in pixels at any depth.
          expect(distance(pixels[i]!.p, pixels[j]!.p)).toBeGreaterThanOrEqual(MIN_AGENT_SEPARATION * pixelsPerUnit * 0.999);
        }
      }
    }
  });
});
