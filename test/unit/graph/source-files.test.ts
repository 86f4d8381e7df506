import { describe, expect, it } from 'vitest';
import { toImportGraph, resolutionConfigKey } from '../../../src/graph/adjacency.js';
import { isResolutionConfigPath, isSourcePath, pathStem } from '../../../src/graph/source-files.js';
import { typescriptWarning } from '../../../src/graph/graph-warnings.js';

describe('graph nodes and config files', () => {
  it('takes ts/tsx/js/jsx/mjs/cjs/mts/cts and declaration files outside node_modules', () => {
    for (const path of ['a.ts', 'b/c.tsx', 'd.js', 'e.jsx', 'f.mjs', 'g.cjs', 'h.mts', 'i.cts', 'types/x.d.ts']) expect(isSourcePath(path)).toBe(true);
    for (const path of ['a.json', 'b.css', 'node_modules/x/index.js', 'pkg/node_modules/y.ts', 'README.md', 'a.tsx.bak'])
      expect(isSourcePath(path)).toBe(false);
  });

  it('knows which files change how imports resolve', () => {
    expect(isResolutionConfigPath('tsconfig.json')).toBe(true);
    expect(isResolutionConfigPath('packages/a/tsconfig.build.json')).toBe(true);
    expect(isResolutionConfigPath('jsconfig.json')).toBe(true);
    // A workspace package's name and entry points decide where `@org/x` resolves (issue 26).
    expect(isResolutionConfigPath('package.json')).toBe(true);
    expect(isResolutionConfigPath('packages/a/package.json')).toBe(true);
    expect(isResolutionConfigPath('pnpm-workspace.yaml')).toBe(true);
    expect(isResolutionConfigPath('package-lock.json')).toBe(false);
    expect(isResolutionConfigPath('node_modules/x/package.json')).toBe(false);
    expect(isResolutionConfigPath('node_modules/x/tsconfig.json')).toBe(false);
  });

  it('names a file or specifier by its stem', () => {
    expect(pathStem('src/util/index.ts')).toBe('index');
    expect(pathStem('types/x.d.ts')).toBe('x');
    expect(pathStem('./x.js')).toBe('x');
    expect(pathStem('@app/b')).toBe('b');
    expect(pathStem('./util/')).toBe('util');
  });
});

describe('toImportGraph', () => {
  it('keeps only present files and edges to present files', () => {
    const records = new Map([
      ['a.ts', { imports: ['b.ts', 'gone.ts'] }],
      ['gone.ts', { imports: [] }],
      ['b.ts', { imports: [] }],
    ]);
    expect(toImportGraph(records, new Set(['a.ts', 'b.ts']))).toEqual({ adjacency: { 'a.ts': ['b.ts'], 'b.ts': [] } });
  });

  it('fingerprints the resolution config independently of listing order', () => {
    const one = resolutionConfigKey(
      'tsconfig.json',
      new Map([
        ['tsconfig.json', '1'],
        ['a/tsconfig.json', '2'],
      ]),
    );
    const two = resolutionConfigKey(
      'tsconfig.json',
      new Map([
        ['a/tsconfig.json', '2'],
        ['tsconfig.json', '1'],
      ]),
    );
    expect(one).toBe(two);
    expect(resolutionConfigKey('tsconfig.json', new Map([['tsconfig.json', '3']]))).not.toBe(one);
  });
});

describe('typescriptWarning', () => {
  it('warns only when TypeScript sources exist and no compiler is usable', () => {
    expect(typescriptWarning(['a.ts', 'b.js'], false)?.code).toBe('typescript-missing');
    expect(typescriptWarning(['b.js'], false)).toBeUndefined();
    expect(typescriptWarning(['a.ts'], true)).toBeUndefined();
    expect(typescriptWarning(['a.ts'], undefined)).toBeUndefined();
  });
});
