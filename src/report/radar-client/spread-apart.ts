/**
 * Keeps markers apart on the screen. The embedding places two agents that collide (R = 1, so
 * D = 0) on the same point: drawn there, one sphere hides the other and the RA line between them
 * has no length. This is display only — the engine's positions and risks are not touched — and it
 * moves points as little as it can, so the picture keeps its neighbourhoods.
 */

export type Point2 = readonly [number, number];

/** Relaxation rounds before the last resort; a handful of collided agents settle in a few. */
const ROUNDS = 80;
/** Pairs are checked n² per round: bound the work for very large airspaces. */
const PAIR_CHECKS_BUDGET = 4_000_000;
/** Push a little past the minimum, so the result is not within rounding of it. */
const OVERSHOOT = 1.001;

/**
 * Points moved so that no two are closer than `minDistance`. Pairs that are too close push each
 * other apart along the line between them, half the shortfall each (a pair exactly on top of
 * each other splits along a fixed direction, vertical first: labels sit beside their marker, so
 * stacked agents keep their labels apart). When every pair is far enough, nothing moves. A point
 * still too close after the relaxation rounds (a dense crowd) goes to the nearest free spot on
 * rings around it.
 */
export function spreadApart(points: readonly Point2[], minDistance: number): Point2[] {
  const p = points.map(([x, y]) => [x, y] as [number, number]);
  const n = p.length;
  if (!(minDistance > 0) || n < 2) return p;
  const rounds = Math.max(4, Math.min(ROUNDS, Math.floor(PAIR_CHECKS_BUDGET / (n * n))));
  for (let round = 0; round < rounds; round++) {
    let pushed = false;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const a = p[i]!;
        const b = p[j]!;
        let dx = b[0] - a[0];
        let dy = b[1] - a[1];
        const d = Math.hypot(dx, dy);
        if (d >= minDistance) continue;
        if (d < minDistance * 1e-6) {
          // On top of each other: split along a direction fixed by the pair, vertical first.
          const angle = Math.PI / 2 + (i * 7 + j - 1) * 2.399963;
          dx = Math.cos(angle);
          dy = Math.sin(angle);
        } else {
          dx /= d;
          dy /= d;
        }
        const half = ((minDistance - d) / 2) * OVERSHOOT;
        a[0] -= dx * half;
        a[1] -= dy * half;
        b[0] += dx * half;
        b[1] += dy * half;
        pushed = true;
      }
    }
    if (!pushed) return p;
  }
  for (let i = 0; i < n; i++) {
    if (tooClose(p, i, p[i]!, minDistance)) p[i] = nearestFreeSpot(p, i, minDistance);
  }
  return p;
}

function tooClose(p: readonly Point2[], self: number, at: Point2, minDistance: number): boolean {
  for (let j = 0; j < p.length; j++) {
    if (j !== self && Math.hypot(p[j]![0] - at[0], p[j]![1] - at[1]) < minDistance) return true;
  }
  return false;
}

/** The first free spot on growing rings around point `self` (a free ring always exists past the crowd). */
function nearestFreeSpot(p: readonly Point2[], self: number, minDistance: number): [number, number] {
  const [x, y] = p[self]!;
  for (let ring = 1; ; ring++) {
    const radius = (ring * minDistance) / 2;
    const steps = 8 * ring;
    for (let k = 0; k < steps; k++) {
      const angle = Math.PI / 2 + (2 * Math.PI * k) / steps;
      const spot: [number, number] = [x + radius * Math.cos(angle), y + radius * Math.sin(angle)];
      if (!tooClose(p, self, spot, minDistance * OVERSHOOT)) return spot;
    }
  }
}
