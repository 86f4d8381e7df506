import { describe, expect, it } from 'vitest';
import { beaconLimits } from '../../../src/beacon/beacon-limits.js';
import { checkBeacon } from '../../../src/beacon/beacon-schema.js';
import { collapseRanges, fitBeacon } from '../../../src/beacon/fit-beacon.js';
import type { WorkingSetFile } from '../../../src/traffic/working-set.js';
import { makeBeacon, SHA_B } from './beacon-fixture.js';

function files(count: number, ranges = 1): WorkingSetFile[] {
  return Array.from({ length: count }, (_, i) => ({
    file: `src/f${i}.ts`,
    status: 'M' as const,
    ranges: Array.from({ length: ranges }, (_, r) => [r * 4 + 1, r * 4 + 3] as const),
    lastEditTime: 1_700_000_000_000 + i,
  }));
}

describe('fitBeacon', () => {
  it('leaves home the files whose names no peer may read (a tab, a newline), counted as cut; the rest still publishes', () => {
    const named = [...files(2), { file: 'a\tb.txt', status: 'A' as const, whole: true }, { file: 'new\nline.txt', status: 'A' as const, whole: true }];
    const fitted = fitBeacon(makeBeacon({ workingSet: { base: SHA_B, files: named }, intent: ['docs/x\n.md', 'docs/y.md'] }), beaconLimits());
    expect(fitted.ok).toBe(true);
    if (!fitted.ok) return;
    expect(fitted.beacon.workingSet.files.map((f) => f.file)).toEqual(['src/f0.ts', 'src/f1.ts']);
    expect(fitted.beacon.truncatedFiles).toBe(2);
    expect(fitted.beacon.intent).toEqual(['docs/y.md']);
    expect(checkBeacon(fitted.beacon).ok).toBe(true);
  });

  it('keeps the expiry of the intent paths it carries, and only of those', () => {
    const fitted = fitBeacon(
      makeBeacon({
        intent: ['docs/x\n.md', 'docs/y.md', 'docs/z.md'],
        intentExpiresAt: [
          ['docs/x\n.md', 1_900_000_000_000],
          ['docs/y.md', 1_900_000_000_000],
        ],
      }),
      beaconLimits(),
    );
    expect(fitted.ok).toBe(true);
    if (!fitted.ok) return;
    expect(fitted.beacon.intentExpiresAt).toEqual([['docs/y.md', 1_900_000_000_000]]);
    expect(checkBeacon(fitted.beacon).ok).toBe(true);
  });

  it('leaves a small beacon unchanged and serializes it', () => {
    const beacon = makeBeacon();
    const fitted = fitBeacon(beacon, beaconLimits());
    expect(fitted.ok).toBe(true);
    if (fitted.ok) {
      expect(fitted.beacon).toEqual(beacon);
      expect(JSON.parse(fitted.json)).toEqual(beacon);
    }
  });

  it('collapses too many ranges into one span', () => {
    expect(
      collapseRanges(
        [
          [5, 6],
          [1, 2],
          [9, 12],
        ],
        2,
      ),
    ).toEqual([[1, 12]]);
    expect(collapseRanges([[5, 6]], 2)).toEqual([[5, 6]]);
    const fitted = fitBeacon(makeBeacon({ workingSet: { base: SHA_B, files: files(1, 600) } }), beaconLimits());
    expect(fitted.ok && fitted.beacon.workingSet.files[0]?.ranges).toEqual([[1, 2399]]);
  });

  it('keeps the most recently edited files when there are too many, and counts the rest', () => {
    const fitted = fitBeacon(makeBeacon({ workingSet: { base: SHA_B, files: files(2500) } }), beaconLimits());
    expect(fitted.ok).toBe(true);
    if (!fitted.ok) return;
    expect(fitted.beacon.workingSet.files).toHaveLength(2000);
    expect(fitted.beacon.truncatedFiles).toBe(500);
    expect(fitted.beacon.workingSet.files.some((f) => f.file === 'src/f2499.ts')).toBe(true);
    expect(fitted.beacon.workingSet.files.some((f) => f.file === 'src/f0.ts')).toBe(false);
    expect(checkBeacon(fitted.beacon).ok).toBe(true);
  });

  it('falls back to whole-file entries when the ranges make it too large, then gives up', () => {
    const big = makeBeacon({ workingSet: { base: SHA_B, files: files(1500, 100) } });
    const fitted = fitBeacon(big, beaconLimits());
    expect(fitted.ok).toBe(true);
    if (!fitted.ok) return;
    expect(Buffer.byteLength(fitted.json)).toBeLessThanOrEqual(256 * 1024);
    expect(fitted.beacon.workingSet.files).toHaveLength(1500);
    expect(fitted.beacon.workingSet.files.every((f) => f.whole === true && f.ranges === undefined)).toBe(true);
    expect(fitBeacon(big, beaconLimits({ maxBytes: 1000 }))).toMatchObject({ ok: false, reason: 'too-large' });
  });

  it('cuts an over-long note and intent list', () => {
    const fitted = fitBeacon(makeBeacon({ note: 'n'.repeat(5000), intent: Array.from({ length: 600 }, (_, i) => `f${i}`) }), beaconLimits());
    expect(fitted.ok && fitted.beacon.note).toHaveLength(2000);
    expect(fitted.ok && fitted.beacon.intent).toHaveLength(500);
  });
});
