import { describe, expect, it } from 'vitest';
import { AREA_DEPTH, areaKey, areaOf, areaPrefixes, areaRefs, areasOf, componentOfAreaRef, MAX_AREAS, WIDE_AREA } from '../../../src/beacon/beacon-areas.js';

describe('code areas', () => {
  it('are the first two directory segments of a path', () => {
    expect(AREA_DEPTH).toBe(2);
    expect(areaOf('src/engine/x.ts')).toBe('src/engine');
    expect(areaOf('src/engine/deep/er/x.ts')).toBe('src/engine');
    expect(areaOf('src/x.ts')).toBe('src');
    expect(areaOf('README.md')).toBe('.');
  });

  it('have fixed-length hex keys, distinct for distinct names', () => {
    const keys = ['src', 'src/engine', '.', '*', 'docs'].map(areaKey);
    expect(keys.every((key) => /^[0-9a-f]{12}$/.test(key))).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('collapse to the wide area beyond MAX_AREAS, and a reader that wide lists everything', () => {
    const many = Array.from({ length: MAX_AREAS + 1 }, (_, i) => `pkg${i}/src/a.ts`);
    expect(areasOf(many)).toEqual([WIDE_AREA]);
    expect(areaPrefixes(many)).toBeNull();
    expect(areasOf(many.slice(0, MAX_AREAS))).toHaveLength(MAX_AREAS);
  });

  it('a reader always lists the wide area beside its own', () => {
    expect(areaPrefixes(['src/engine/a.ts', 'src/engine/b.ts'])).toEqual([
      `refs/airspace/areas/${areaKey('src/engine')}/`,
      `refs/airspace/areas/${areaKey('*')}/`,
    ]);
  });

  it('a beacon stands under one ref per area of its files, both sides of a rename and its intent', () => {
    const refs = areaRefs(
      { workingSet: { base: null, files: [{ file: 'lib/old/a.ts', path: 'src/new/a.ts', status: 'R', whole: true }] }, intent: ['docs/x.md'] },
      'c/a',
    );
    expect(new Set(refs.map((ref) => ref.split('/')[3]))).toEqual(new Set([areaKey('docs'), areaKey('lib/old'), areaKey('src/new')]));
    expect(refs.every((ref) => ref.endsWith('/c/a'))).toBe(true);
  });

  it('an area ref names its agent; anything else does not', () => {
    expect(componentOfAreaRef(`refs/airspace/remote/areas/${areaKey('src')}/0123456789/feature%2Fx`)).toBe('0123456789/feature%2Fx');
    expect(componentOfAreaRef('refs/airspace/remote/areas/not-a-key/0123456789/x')).toBeNull();
    expect(componentOfAreaRef('refs/airspace/remote/beacons/0123456789/x')).toBeNull();
  });
});
