import { describe, expect, it } from 'vitest';
import type { DirectoryEntries, EntryKind } from '../../../src/graph/directory-entries.js';
import { resolveRelativeImport } from '../../../src/source/resolve-relative-import.js';
import { resolveImport, type ResolveContext } from '../../../src/symbols/resolve-import.js';

/**
 * Before one resolver, the symbol channel tried `.ts` before a `.js` named as written, `.d.ts`
 * before `.js`, and `.js` before `.mts`: the first three imports below named a different file in
 * each. The graph's answer is dependency-cruiser's (test/integration/graph-direct-read.test.ts).
 */

/** Directory listings of an in-memory tree, as the graph's direct reader sees the disk. */
function entriesOf(files: readonly string[]): DirectoryEntries {
  const dirs = new Set(['']);
  for (const file of files) for (let i = file.indexOf('/'); i >= 0; i = file.indexOf('/', i + 1)) dirs.add(file.slice(0, i));
  return { kind: (path): EntryKind => (files.includes(path) ? 'file' : dirs.has(path) ? 'dir' : 'none') };
}

const FILES = ['a/main.ts', 'a/shadow.ts', 'a/shadow.js', 'a/typed.js', 'a/typed.d.ts', 'a/dual.mts', 'a/dual.js', 'a/only.ts', 'a/dir/index.ts'];

describe('the graph and the symbol channel resolve an import to the same file', () => {
  const context: ResolveContext = {
    changedFiles: new Set(FILES),
    existing: async (paths) => new Set(paths.filter((p) => FILES.includes(p))),
    factsOf: async () => null,
    resolveNonRelative: async () => ({ kind: 'external' }),
    onUnresolved: () => undefined,
  };

  it.each(['./shadow.js', './typed', './dual', './only.js', './dir'])('%s', async (specifier) => {
    const graph = resolveRelativeImport(entriesOf(FILES), 'a', specifier);
    const symbols = await resolveImport('a/main.ts', specifier, 'x', context);
    expect(graph).toBeDefined();
    expect(symbols?.file).toBe(graph);
  });
});

describe('a relative import that ends in a slash names a directory', () => {
  // typeorm's tests import `../../../../../src/`: dependency-cruiser resolves it to src/index.ts.
  const files = ['src/index.ts', 'src.ts', 'test/a/b.ts', 'pkg/package.json', 'pkg/index.ts'];

  it('resolves to the directory index, never to a file of the same name', () => {
    expect(resolveRelativeImport(entriesOf(files), 'test/a', '../../src/')).toBe('src/index.ts');
    expect(resolveRelativeImport(entriesOf(files), 'test/a', '../../src')).toBe('src.ts');
  });

  it('leaves a directory with a package.json (its main is not modelled) and a missing one unresolved', () => {
    expect(resolveRelativeImport(entriesOf(files), 'test/a', '../../pkg/')).toBeUndefined();
    expect(resolveRelativeImport(entriesOf(files), 'test/a', '../../none/')).toBeUndefined();
  });
});
