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
 * Points moved so that no two are closer than `minDistance`. Points stacked on one spot are first
 * set on a ring around it (two of them one above the other: labels sit beside their marker, so
 * stacked agents keep their labels apart). Then pairs still too close push each other apart along
 * the line between them, half the shortfall each. When every pair is far enough, nothing moves. A
 * point still too close after the relaxation rounds (a dense crowd) goes to the nearest free spot
 * on rings around it. A point lying on one of `links` (pairs of indices: the advisory lines) between
 * two others is pushed off it sideways, so no marker hides a line it is not part of.
 */
export function spreadApart(points: readonly Point2[], minDistance: number, links: readonly (readonly [number, number])[] = []): Point2[] {
  const p = points.map(([x, y]) => [x, y] as [number, number]);
  const n = p.length;
  if (!(minDistance > 0) || n < 2) return p;
  ringStacks(p, minDistance);
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
    if (clearLinks(p, links, minDistance * LINK_CLEARANCE)) pushed = true;
    if (!pushed) return p;
  }
  for (let i = 0; i < n; i++) {
    if (tooClose(p, i, p[i]!, minDistance)) p[i] = nearestFreeSpot(p, i, minDistance);
  }
  return p;
}

/** How far a marker keeps from a line it is not part of, as a fraction of the minimum distance. */
const LINK_CLEARANCE = 0.4;

/** Pushes every point that lies on a link between two others off it, sideways; true when one moved. */
function clearLinks(p: [number, number][], links: readonly (readonly [number, number])[], clearance: number): boolean {
  let pushed = false;
  for (const [i, j] of links) {
    const a = p[i];
    const b = p[j];
    if (!a || !b) continue;
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const length2 = dx * dx + dy * dy;
    if (length2 < 1e-12) continue;
    for (let m = 0; m < p.length; m++) {
      if (m === i || m === j) continue;
      const c = p[m]!;
      const t = ((c[0] - a[0]) * dx + (c[1] - a[1]) * dy) / length2;
      if (t <= 0 || t >= 1) continue;
      const offX = c[0] - (a[0] + t * dx);
      const offY = c[1] - (a[1] + t * dy);
      const off = Math.hypot(offX, offY);
      if (off >= clearance) continue;
      // Exactly on the line: to the line's left, by a fixed rule.
      const length = Math.sqrt(length2);
      const [nx, ny] = off > 1e-9 ? [offX / off, offY / off] : [-dy / length, dx / length];
      const push = (clearance - off) * OVERSHOOT;
      c[0] += nx * push;
      c[1] += ny * push;
      pushed = true;
    }
  }
  return pushed;
}

/** Points this close together count as one stack (agents on the same files). */
const STACK_FRACTION = 0.05;

/**
 * Agents stacked on (nearly) one point are first set on a ring around it, `minDistance` apart
 * from their neighbours, in the order they lay around their centre. Pushed apart pair by pair,
 * three of them would end up on one line, and the line between the outer two would run through
 * the middle one's marker; on a ring every link between them stays visible.
 */
function ringStacks(p: [number, number][], minDistance: number): void {
  const near = minDistance * STACK_FRACTION;
  const taken = new Array<boolean>(p.length).fill(false);
  for (let i = 0; i < p.length; i++) {
    if (taken[i]) continue;
    const stack = [i];
    for (let j = i + 1; j < p.length; j++) {
      if (!taken[j] && Math.hypot(p[j]![0] - p[i]![0], p[j]![1] - p[i]![1]) < near) stack.push(j);
    }
    if (stack.length < 2) continue;
    for (const k of stack) taken[k] = true;
    const cx = stack.reduce((sum, k) => sum + p[k]![0], 0) / stack.length;
    const cy = stack.reduce((sum, k) => sum + p[k]![1], 0) / stack.length;
    // Around the centre in the order they lay; exactly stacked ones keep their index order.
    const angle = (k: number): number => {
      const dx = p[k]![0] - cx;
      const dy = p[k]![1] - cy;
      return Math.hypot(dx, dy) < near * 1e-6 ? 0 : Math.atan2(dy, dx);
    };
    const order = [...stack].sort((x, y) => angle(x) - angle(y) || x - y);
    const radius = ((minDistance / 2) * OVERSHOOT) / Math.sin(Math.PI / stack.length);
    order.forEach((k, slot) => {
      const at = Math.PI / 2 + (2 * Math.PI * slot) / stack.length;
      p[k] = [cx + radius * Math.cos(at), cy + radius * Math.sin(at)];
    });
  }
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
