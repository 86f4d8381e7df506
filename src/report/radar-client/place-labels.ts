/**
 * Where the radar's HTML labels go: each label tries its candidate positions in order and takes
 * the first one that covers nothing — no marker, no other label, no advisory line, no card of the
 * page, nothing outside the view. When every candidate covers something, it takes the one that
 * covers least. Greedy and in screen pixels: a few dozen labels, a few dozen candidates each.
 */

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export interface Segment {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
}

export interface LabelRequest {
  readonly key: string;
  readonly w: number;
  readonly h: number;
  /** Top-left corners to try, best first. */
  readonly candidates: readonly (readonly [number, number])[];
}

export interface Placement {
  readonly x: number;
  readonly y: number;
  /** Which candidate was taken. */
  readonly candidate: number;
  /** False when every candidate covered something (this one covers least). */
  readonly clear: boolean;
}

export interface Obstacles {
  readonly boxes: readonly Box[];
  readonly segments: readonly Segment[];
  /** The area labels must stay inside (the view). */
  readonly bounds: Box;
}

/** Labels keep this many pixels from whatever they avoid. */
export const LABEL_MARGIN = 3;
/** Covering a line costs as much as covering this many square pixels of a box. */
const SEGMENT_COST = 400;
/** Covering another label is worse than covering a marker or a card: two texts on each other read as neither. */
const LABEL_WEIGHT = 4;

/**
 * Places the labels in order (the first ones get the best spots). `previous` holds the candidate
 * each label took last time: it is tried first, so labels do not flip between equally good spots
 * as the view turns.
 */
export function placeLabels(
  requests: readonly LabelRequest[],
  obstacles: Obstacles,
  previous: ReadonlyMap<string, number> = new Map(),
): Map<string, Placement> {
  const placed: Box[] = [];
  const result = new Map<string, Placement>();
  for (const request of requests) {
    const order = request.candidates.map((_, i) => i);
    const last = previous.get(request.key);
    if (last !== undefined && last < order.length) order.unshift(...order.splice(last, 1));
    let best: Placement | null = null;
    let bestCost = Infinity;
    for (const i of order) {
      const [x, y] = request.candidates[i]!;
      const box = { x, y, w: request.w, h: request.h };
      const cost = coverCost(box, obstacles, placed, bestCost);
      if (cost < bestCost) {
        bestCost = cost;
        best = { x, y, candidate: i, clear: cost === 0 };
        if (cost === 0) break;
      }
    }
    if (!best) continue;
    result.set(request.key, best);
    placed.push({ x: best.x, y: best.y, w: request.w, h: request.h });
  }
  return result;
}

/** What a label at `box` would cover; stops counting once past `enough` (a better spot is known). */
function coverCost(box: Box, obstacles: Obstacles, placed: readonly Box[], enough: number): number {
  const padded = { x: box.x - LABEL_MARGIN, y: box.y - LABEL_MARGIN, w: box.w + 2 * LABEL_MARGIN, h: box.h + 2 * LABEL_MARGIN };
  const { bounds } = obstacles;
  let cost = box.w * box.h - overlapArea(box, bounds);
  for (const other of placed) {
    if (cost >= enough) return cost;
    cost += LABEL_WEIGHT * overlapArea(padded, other);
  }
  for (const other of obstacles.boxes) {
    if (cost >= enough) return cost;
    cost += overlapArea(padded, other);
  }
  for (const segment of obstacles.segments) {
    if (cost >= enough) return cost;
    if (segmentHitsBox(segment, padded)) cost += SEGMENT_COST;
  }
  return cost;
}

export function overlapArea(a: Box, b: Box): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** Whether the segment passes through the box (Liang–Barsky clipping). */
export function segmentHitsBox(s: Segment, box: Box): boolean {
  const dx = s.x2 - s.x1;
  const dy = s.y2 - s.y1;
  let t0 = 0;
  let t1 = 1;
  const edges: [number, number][] = [
    [-dx, s.x1 - box.x],
    [dx, box.x + box.w - s.x1],
    [-dy, s.y1 - box.y],
    [dy, box.y + box.h - s.y1],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

/** Sides of a marker a name may take, best first (degrees, screen y pointing down): right, left, above, below, then between. */
const MARKER_SIDES = [0, -45, 45, 180, -135, 135, -90, 90, -22.5, 22.5, -157.5, 157.5, -67.5, 67.5, -112.5, 112.5];

/**
 * Candidate top-left corners for a label of `w` × `h` beside a round marker of radius `r` at
 * (cx, cy): sixteen sides, each at growing distances. The label touches the point at that side and
 * distance with the middle of its facing edge (its left edge for a label on the right, and so on).
 */
export function besideMarker(cx: number, cy: number, r: number, w: number, h: number): [number, number][] {
  const out: [number, number][] = [];
  for (const gap of [4, 14, 28, 48]) {
    for (const degrees of MARKER_SIDES) {
      const angle = (degrees * Math.PI) / 180;
      const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
      const ax = cx + (r + gap) * cos;
      const ay = cy + (r + gap) * sin;
      out.push([ax - (w * (1 - cos)) / 2, ay - (h * (1 - sin)) / 2]);
    }
  }
  return out;
}

/**
 * Candidate top-left corners for a link's badge: beside the line (never on it), near its middle
 * first, on either side, then farther along and farther out.
 */
export function besideLink(a: readonly [number, number], b: readonly [number, number], w: number, h: number): [number, number][] {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const length = Math.hypot(dx, dy);
  // A link with no length on screen (it points at the camera): its badge goes above the point.
  const [nx, ny] = length > 1e-6 ? [-dy / length, dx / length] : [0, -1];
  // How far the box reaches in the normal's direction from its centre.
  const reach = (w / 2) * Math.abs(nx) + (h / 2) * Math.abs(ny);
  const out: [number, number][] = [];
  for (const gap of [6, 18, 36, 60]) {
    for (const t of [0.5, 0.38, 0.62, 0.26, 0.74]) {
      for (const side of [1, -1]) {
        const cx = a[0] + dx * t + side * nx * (reach + gap);
        const cy = a[1] + dy * t + side * ny * (reach + gap);
        out.push([cx - w / 2, cy - h / 2]);
      }
    }
  }
  return out;
}
