import { describe, expect, it } from 'vitest';
import type { FileRecord, GraphCache } from '../../../src/graph/graph-cache.js';
import { countChanged, planRefresh } from '../../../src/graph/plan-refresh.js';

const record = (blob: string, imports: string[] = [], unresolved: string[] = []): FileRecord => ({ blob, imports, unresolved });
const cacheOf = (files: Record<string, FileRecord>, configKey = 'k'): GraphCache => ({
  builtAt: 0,
  configKey,
  typescriptAvailable: true,
  files: new Map(Object.entries(files)),
});

describe('planRefresh', () => {
  const cache = cacheOf({
    'src/a.ts': record('1', ['src/b.ts']),
    'src/b.ts': record('2', ['src/lib.js']),
    'src/c.ts': record('3', [], ['./util', '@app/x/thing.js', 'react']),
    'src/d.ts': record('4', ['src/gone.ts']),
    'src/gone.ts': record('5'),
    'src/lib.js': record('6'),
    'src/e.ts': record('7', ['src/feature/index.ts']),
    'src/feature/index.ts': record('8'),
  });
  const unchanged = new Map([...cache.files].map(([path, { blob }]) => [path, blob]));

  it('plans nothing when every blob id matches', () => {
    expect(planRefresh(cache, unchanged, 'k')).toEqual({ full: false, toCruise: [], deleted: [], changed: 0 });
    expect(countChanged(cache, unchanged, 'k')).toBe(0);
  });

  it('re-reads a modified file only, not its importers', () => {
    const sources = new Map(unchanged).set('src/b.ts', 'changed');
    expect(planRefresh(cache, sources, 'k')).toEqual({ full: false, toCruise: ['src/b.ts'], deleted: [], changed: 1 });
  });

  it('re-reads the importers of a deleted file', () => {
    const sources = new Map(unchanged);
    sources.delete('src/gone.ts');
    expect(planRefresh(cache, sources, 'k')).toEqual({ full: false, toCruise: ['src/d.ts'], deleted: ['src/gone.ts'], changed: 1 });
    expect(countChanged(cache, sources, 'k')).toBe(1);
  });

  it('retries unresolved imports that name an added file or an added index file’s directory', () => {
    expect(planRefresh(cache, new Map(unchanged).set('src/util/index.ts', 'n'), 'k').toCruise).toEqual(['src/c.ts', 'src/util/index.ts']);
    expect(planRefresh(cache, new Map(unchanged).set('packages/x/src/thing.ts', 'n'), 'k').toCruise).toEqual(['packages/x/src/thing.ts', 'src/c.ts']);
    expect(planRefresh(cache, new Map(unchanged).set('src/other.ts', 'n'), 'k').toCruise).toEqual(['src/other.ts']);
  });

  it('re-reads importers of a file the added file may shadow', () => {
    // lib.ts beats lib.js for `./lib`; feature.ts beats feature/index.ts for `./feature`.
    expect(planRefresh(cache, new Map(unchanged).set('src/lib.ts', 'n'), 'k').toCruise).toEqual(['src/b.ts', 'src/lib.ts']);
    expect(planRefresh(cache, new Map(unchanged).set('src/feature.ts', 'n'), 'k').toCruise).toEqual(['src/e.ts', 'src/feature.ts']);
  });

  it('plans a full cruise without a cache or after a resolution config change', () => {
    expect(planRefresh(undefined, unchanged, 'k')).toMatchObject({ full: true, changed: unchanged.size });
    const plan = planRefresh(cache, unchanged, 'other');
    expect(plan.full).toBe(true);
    expect(plan.toCruise).toHaveLength(unchanged.size);
    expect(countChanged(cache, unchanged, 'other')).toBe(unchanged.size);
  });

  it('treats a record with an empty blob id (invalidated) as changed', () => {
    const invalidated = cacheOf({ 'src/a.ts': record('') });
    expect(planRefresh(invalidated, new Map([['src/a.ts', '']]), 'k').toCruise).toEqual(['src/a.ts']);
  });
});
