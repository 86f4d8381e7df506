import { describe, expect, it } from 'vitest';
import { type Box, besideLink, besideMarker, overlapArea, placeLabels, segmentHitsBox } from '../../../src/report/radar-client/place-labels.js';
import { badgeFiles, shortPath } from '../../../src/report/radar-client/short-path.js';
import { rng } from '../engine/generate-airspace.js';
import type { Link } from '../../../src/engine/types.js';

const VIEW: Box = { x: 0, y: 0, w: 960, h: 600 };

describe('placeLabels (badges and names where they cover nothing)', () => {
  it('moves a badge off the markers, the names and the line it labels', () => {
    // Two collided agents 75 px apart, their names already placed, an RA badge to place.
    const a = [400, 300] as const;
    const b = [460, 255] as const;
    const markers: Box[] = [a, b].map(([x, y]) => ({ x: x - 18, y: y - 18, w: 36, h: 36 }));
    const line = { x1: a[0], y1: a[1], x2: b[0], y2: b[1] };
    const names = [
      { key: 'agent:a', w: 120, h: 18, candidates: besideMarker(a[0], a[1], 18, 120, 18) },
      { key: 'agent:b', w: 140, h: 18, candidates: besideMarker(b[0], b[1], 18, 140, 18) },
      { key: 'link:a\u0000b', w: 190, h: 32, candidates: besideLink(a, b, 190, 32) },
    ];
    const placed = placeLabels(names, { boxes: markers, segments: [line], bounds: VIEW });
    const boxes = names.map(({ key, w, h }) => ({ key, x: placed.get(key)!.x, y: placed.get(key)!.y, w, h }));
    for (const box of boxes) {
      expect(placed.get(box.key)!.clear, box.key).toBe(true);
      for (const marker of markers) expect(overlapArea(box, marker)).toBe(0);
      expect(segmentHitsBox(line, box), `${box.key} on the line`).toBe(false);
      for (const other of boxes) if (other !== box) expect(overlapArea(box, other)).toBe(0);
    }
  });

  it('on random scenes with room: every label it calls clear overlaps nothing, and most are clear', () => {
    const random = rng(3);
    let labels = 0;
    let clear = 0;
    const covering: string[] = [];
    for (let round = 0; round < 200; round++) {
      const markers = Array.from({ length: 2 + Math.floor(random() * 8) }, () => ({ x: 40 + random() * 880, y: 40 + random() * 520, r: 10 + random() * 10 }));
      const boxes = markers.map((m) => ({ x: m.x - m.r, y: m.y - m.r, w: 2 * m.r, h: 2 * m.r }));
      const segments = markers.slice(1, 3).map((m) => ({ x1: markers[0]!.x, y1: markers[0]!.y, x2: m.x, y2: m.y }));
      const requests = markers.map((m, i) => {
        const w = 60 + random() * 140;
        return { key: `agent:${i}`, w, h: 18, candidates: besideMarker(m.x, m.y, m.r, w, 18) };
      });
      const placed = placeLabels(requests, { boxes, segments, bounds: VIEW });
      const rects = requests.map((r) => ({ ...r, ...placed.get(r.key)! }));
      for (const rect of rects) {
        labels += 1;
        if (!rect.clear) continue;
        clear += 1;
        // One expect at the end: vitest's expect costs more than these checks.
        const what = `round ${round}, ${rect.key}`;
        if (Math.abs(overlapArea(rect, VIEW) - rect.w * rect.h) > 1e-6) covering.push(`${what}: outside the view`);
        if (boxes.some((box) => overlapArea(rect, box) > 0)) covering.push(`${what}: on a marker`);
        if (segments.some((segment) => segmentHitsBox(segment, rect))) covering.push(`${what}: on a line`);
        if (rects.some((other) => other !== rect && overlapArea(rect, other) > 0)) covering.push(`${what}: on a label`);
      }
    }
    expect(covering).toEqual([]);
    expect(clear / labels).toBeGreaterThan(0.9);
  });

  it('keeps the spot it took last time when that spot is still free', () => {
    const request = { key: 'agent:x', w: 80, h: 18, candidates: besideMarker(300, 300, 15, 80, 18) };
    const obstacles = { boxes: [], segments: [], bounds: VIEW };
    expect(placeLabels([request], obstacles).get('agent:x')!.candidate).toBe(0);
    expect(placeLabels([request], obstacles, new Map([['agent:x', 3]])).get('agent:x')!.candidate).toBe(3);
  });

  it('tells a segment through a box from one beside it', () => {
    const box = { x: 10, y: 10, w: 20, h: 10 };
    expect(segmentHitsBox({ x1: 0, y1: 15, x2: 40, y2: 15 }, box)).toBe(true);
    expect(segmentHitsBox({ x1: 15, y1: 12, x2: 16, y2: 13 }, box)).toBe(true);
    expect(segmentHitsBox({ x1: 0, y1: 0, x2: 40, y2: 5 }, box)).toBe(false);
    expect(segmentHitsBox({ x1: 0, y1: 25, x2: 8, y2: 0 }, box)).toBe(false);
  });
});

describe('shortPath and badgeFiles (which file, on the picture)', () => {
  it('keeps short paths, keeps the file name and the first folder of long ones', () => {
    expect(shortPath('packages/shared/src/general.ts')).toBe('packages/shared/src/general.ts');
    expect(shortPath('packages/runtime-core/src/components/KeepAlive.ts')).toBe('packages/…/components/KeepAlive.ts');
    expect(shortPath('a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z.ts', 20)).toBe('a/…/t/u/v/w/x/y/z.ts');
    const long = `src/${'very-long-name-'.repeat(5)}.ts`;
    expect([...shortPath(long)].length).toBeLessThanOrEqual(36);
    expect(shortPath(long).endsWith('.ts')).toBe(true);
  });

  it('never cuts a character in half, and leaves hostile names as they are for the page to set as text', () => {
    expect([...shortPath(`src/${'😀'.repeat(50)}.ts`)].every((c) => c !== '\ufffd')).toBe(true);
    expect(shortPath('src/<img src=x onerror=alert(1)>.ts')).toBe('src/<img src=x onerror=alert(1)>.ts');
  });

  it('names the most overlapping shared files first and counts the rest', () => {
    const link = {
      sharedFiles: [
        { path: 'packages/shared/src/index.ts', overlap: 0.2, gap: 4 },
        { path: 'packages/shared/src/general.ts', overlap: 1, gap: 0 },
        { path: 'packages/shared/src/makeMap.ts', overlap: 0.5, gap: 0 },
      ],
    } as unknown as Link;
    expect(badgeFiles(link)).toEqual({ names: ['packages/shared/src/general.ts', 'packages/shared/src/makeMap.ts'], more: 1 });
  });
});
