import { describe, expect, it } from 'vitest';
import { resolutionConfigKey } from '../../../src/graph/adjacency.js';

const manifest = (fields: Record<string, unknown>): string => JSON.stringify(fields);
const keyOf = (text: string | undefined, blob = 'blob-a'): string =>
  resolutionConfigKey(
    'tsconfig.json',
    new Map([
      ['packages/shared/package.json', blob],
      ['tsconfig.json', 'blob-t'],
    ]),
    () => text,
  );

describe('resolutionConfigKey', () => {
  const base = { name: '@x/shared', version: '1.0.0', main: 'dist/index.js', dependencies: { lodash: '^4.0.0' } };

  it('ignores what import resolution does not read in a package.json (its version, a dependency range, scripts)', () => {
    const bumped = { ...base, version: '1.1.0', dependencies: { lodash: '^4.17.0' }, scripts: { test: 'vitest' } };
    expect(keyOf(manifest(bumped), 'blob-b')).toBe(keyOf(manifest(base), 'blob-a'));
  });

  it('changes with every field the resolver reads: name, entry points, workspaces and dependency names', () => {
    const key = keyOf(manifest(base));
    expect(keyOf(manifest({ ...base, name: '@x/common' }))).not.toBe(key);
    expect(keyOf(manifest({ ...base, main: 'src/index.ts' }))).not.toBe(key);
    expect(keyOf(manifest({ ...base, exports: { '.': './src/index.ts' } }))).not.toBe(key);
    expect(keyOf(manifest({ ...base, workspaces: ['packages/*'] }))).not.toBe(key);
    expect(keyOf(manifest({ ...base, dependencies: { lodash: '^4.0.0', '@x/app': '*' } }))).not.toBe(key);
  });

  it('keys an unreadable or unparsable package.json by its blob id', () => {
    expect(keyOf(undefined, 'blob-a')).not.toBe(keyOf(undefined, 'blob-b'));
    expect(keyOf('{ not json', 'blob-a')).not.toBe(keyOf('{ not json', 'blob-b'));
    expect(keyOf('[1, 2]', 'blob-a')).not.toBe(keyOf('[1, 2]', 'blob-b'));
  });

  it('keys a tsconfig by its blob id whatever its content reads as', () => {
    const configs = (blob: string) => new Map([['tsconfig.json', blob]]);
    expect(resolutionConfigKey('tsconfig.json', configs('t1'), () => '{}')).not.toBe(resolutionConfigKey('tsconfig.json', configs('t2'), () => '{}'));
  });
});
