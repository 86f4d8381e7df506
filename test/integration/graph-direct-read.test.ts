import { realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cruiseInBatches } from '../../src/graph/cruise-in-batches.js';
import { listRepoFiles } from '../../src/graph/list-repo-files.js';
import { loadImportGraph } from '../../src/graph/load-import-graph.js';
import { openDirectReader } from '../../src/graph/read-imports-directly.js';
import { cruiserUsage, type CruisedFile } from '../../src/graph/run-cruise.js';
import { initRepo, PROJECT_ROOT, removeDir, tempDir } from '../helpers/temp-repo.js';

/**
 * The direct path (oxc module record + directory listings) must give, file by file, exactly the
 * record dependency-cruiser gives, and must leave to dependency-cruiser every file it cannot be
 * sure about. Both are checked against the real dependency-cruiser: on a fixture made of the
 * resolution corner cases, and on this repository's own sources.
 */

const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', paths: { '@b/*': ['./b/*'] } } }),
  '.gitignore': 'node_modules/\na/gen.ts\n',
  // Read directly: every import relative (or a core module) and certain.
  'a/main.ts': [
    "import { y } from './y.js';", // .js specifier, only y.ts exists (dependency-cruiser's retry)
    "import { z } from './z';", // extension-less, z.tsx
    "import { d } from './dir';", // a directory's index.ts
    "import { i } from './idx.js';", // retry lands on a directory index: idx/index.ts
    "import type { T } from './types.js';", // type-only
    "import data from './data.json';", // resolves to a non-source file: no edge
    "import { both } from './both';", // both.ts beats both.js
    "import { shadow } from './shadow.js';", // shadow.js exists as written: it wins over shadow.ts
    "import { decl } from './decl.js';", // only a declaration file
    "import { m } from './m.mjs';", // .mjs -> .mts
    "import { dual } from './dual.js';", // dual.mts and dual.d.ts: see resolve-relative-import.ts on the retry
    "import { gen } from './gen';", // an ignored gen.ts on disk comes before the tracked gen.js
    "import { readFileSync } from 'node:fs';",
    "import path from 'path';",
    "import { self } from './main.js';", // itself: no edge
    "import '../c/side-effect.js';",
    "export * from '../c/c.js';",
    "export type { U } from './types.js';",
    'export {};',
    "export const lazy = () => import('./lazy.js');",
    'export const all = [dual, y, z, d, i, data, both, shadow, decl, m, gen, readFileSync, path, self];',
    'export type Alias = T;',
  ].join('\n'),
  'a/y.ts': 'export const y = 1;\n',
  'a/z.tsx': 'export const z = 1;\n',
  'a/dir/index.ts': 'export const d = 1;\n',
  'a/idx/index.ts': 'export const i = 1;\n',
  'a/types.ts': 'export interface T { n: number }\nexport type U = T;\n',
  'a/data.json': '{}\n',
  'a/both.ts': 'export const both = 1;\n',
  'a/both.js': 'export const both = 2;\n',
  'a/shadow.ts': 'export const shadow = 1;\n',
  'a/shadow.js': 'export const shadow = 2;\n',
  'a/decl.d.ts': 'export declare const decl: number;\n',
  'a/m.mts': 'export const m = 1;\n',
  'a/dual.mts': 'export const dual = 1;\n',
  'a/dual.d.ts': 'export declare const dual: number;\n',
  'a/gen.ts': 'export const gen = 1;\n',
  'a/gen.js': 'export const gen = 2;\n',
  'a/lazy.ts': 'export const lazy = 1;\n',
  'c/c.js': 'export const c = 1;\n',
  'c/side-effect.ts': 'globalThis.x = 1;\n',
  // Left to dependency-cruiser: each holds one thing the direct path does not model.
  'r/require.ts': "import x = require('../a/y.js');\nexport = x;\n",
  'r/type-import.ts': "export type Y = import('../a/types.js').T;\n",
  'r/package.ts': "import pad from 'left-pad';\nexport default pad;\n",
  'r/alias.ts': "import { y } from '@b/y.js';\nexport default y;\n",
  'r/with-main.ts': "import w from './pkg';\nexport default w;\n",
  'r/pkg/package.json': JSON.stringify({ main: 'lib.js' }),
  'r/pkg/lib.js': 'export default 1;\n',
  'r/pkg/index.ts': 'export default 2;\n',
  'r/ghost.ts': "import { g } from './phantom.js';\nexport default g;\n",
  'r/template.ts': 'export const t = () => import(`../a/y.js`);\n',
  'r/reference.ts': '/// <reference path="../a/decl.d.ts" />\nexport const r = 1;\n',
  'r/declare.ts': "declare module 'thing' {\n  import { y } from '../a/y.js';\n}\nexport const d = 1;\n",
  'r/view.jsx': "import { y } from '../a/y.js';\nexport const V = () => <div>{y}</div>;\n",
  'r/broken.ts': "import { y } from '../a/y.js'\nexport const = ;;; {{{ )\n",
  'r/export-nothing.ts': "export {} from '../a/y.js';\n",
  'r/case.ts': "import { y } from '../a/Y.js';\nexport default y;\n",
  'r/protocol.ts': "import { Database } from 'bun:sqlite';\nimport { test } from 'node:test';\nexport default [Database, test];\n",
  'r/through-link.ts': "import { l } from './linked/l.js';\nexport default l;\n",
  'b/y.ts': 'export const y = 1;\n',
  'target/l.ts': 'export const l = 1;\n',
};

const DIRECT = ['a/main.ts', 'a/y.ts', 'c/c.js', 'c/side-effect.ts'];
const LEFT_TO_CRUISER = [
  'r/require.ts',
  'r/type-import.ts',
  'r/package.ts',
  'r/alias.ts',
  'r/with-main.ts',
  'r/ghost.ts',
  'r/template.ts',
  'r/reference.ts',
  'r/declare.ts',
  'r/view.jsx',
  'r/broken.ts',
  'r/export-nothing.ts',
  'r/case.ts',
  'r/through-link.ts',
  'r/protocol.ts',
];

async function bothWays(toplevel: string, files: readonly string[]): Promise<{ direct: Map<string, CruisedFile>; cruiser: Map<string, CruisedFile> }> {
  const tsconfig = 'tsconfig.json';
  const [direct, cruiser] = [
    await cruiseInBatches(toplevel, files, { tsconfig, now: Date.now }),
    await cruiseInBatches(toplevel, files, { tsconfig, now: Date.now, direct: false }),
  ];
  return { direct: direct.cruised, cruiser: cruiser.cruised };
}

describe('the direct read gives exactly dependency-cruiser’s records', () => {
  let repo: string;
  let files: string[];

  beforeAll(async () => {
    // The real path: the direct path trusts nothing under a symlinked root.
    repo = initRepo(FILES, realpathSync(tempDir()));
    symlinkSync(join(repo, 'target'), join(repo, 'r', 'linked'));
    files = [...(await listRepoFiles(repo)).sources.keys()].sort();
  });
  afterAll(() => removeDir(repo));

  it('reads the certain files itself and leaves every doubtful one to dependency-cruiser', async () => {
    const reader = await openDirectReader(repo);
    const { records, rest } = reader!.read(files);
    for (const file of DIRECT) expect(records.has(file), file).toBe(true);
    for (const file of LEFT_TO_CRUISER) expect(rest, file).toContain(file);
    expect(records.get('a/main.ts')!.imports).toEqual([
      'a/both.ts',
      'a/decl.d.ts',
      'a/dir/index.ts',
      'a/dual.mts',
      'a/gen.ts',
      'a/idx/index.ts',
      'a/lazy.ts',
      'a/m.mts',
      'a/shadow.js',
      'a/types.ts',
      'a/y.ts',
      'a/z.tsx',
      'c/c.js',
      'c/side-effect.ts',
    ]);
  });

  it('gives the same imports and unresolved specifiers for every file of the fixture', async () => {
    const { direct, cruiser } = await bothWays(repo, files);
    expect([...direct.keys()].sort()).toEqual(files);
    for (const file of files) expect(direct.get(file), file).toEqual(cruiser.get(file));
  });

  it('without a TypeScript (complete): oxc reads every file, with dependency-cruiser’s edges', async () => {
    const reader = await openDirectReader(repo, { complete: true, layoutFiles: ['tsconfig.json'] });
    const { records, rest } = reader!.read(files);
    expect(rest).toEqual([]);
    const { cruiser } = await bothWays(repo, files);
    // dependency-cruiser follows a symlink to its real path (not a node either way: symlinks are
    // not graph nodes); a package from outside the repository is "not resolved" to it, no edge to us.
    const DIFFERENT = new Map([
      ['r/through-link.ts', { imports: ['r/linked/l.ts'], unresolved: [] }],
      ['r/package.ts', { imports: [], unresolved: [] }],
    ]);
    for (const file of files) expect(records.get(file), file).toEqual(DIFFERENT.get(file) ?? cruiser.get(file));
    expect(records.get('r/with-main.ts')?.imports).toEqual(['r/pkg/lib.js']);
  });

  it('refreshes files with relative imports without loading dependency-cruiser once a build found TypeScript', async () => {
    const common = join(repo, '.git');
    const full = await loadImportGraph(repo, common, { refresh: 'auto' });
    expect(full.source).toBe('full');
    writeFileSync(join(repo, 'a/y.ts'), "import { z } from './z';\nexport const y = z;\n");
    const loads = cruiserUsage().loads;
    const refreshed = await loadImportGraph(repo, common, { refresh: 'auto' });
    expect(refreshed.source).toBe('incremental');
    expect(refreshed.filesCruised).toBe(1);
    expect(refreshed.graph.adjacency['a/y.ts']).toEqual(['a/z.tsx']);
    expect(cruiserUsage().loads).toBe(loads);
  });
});

describe('on a real repository (this one’s sources)', () => {
  it('gives dependency-cruiser’s records file by file, most of them read directly', async () => {
    const files = [...(await listRepoFiles(PROJECT_ROOT)).sources.keys()].filter((file) => file.startsWith('src/')).sort();
    const { direct, cruiser } = await bothWays(PROJECT_ROOT, files);
    let edges = 0;
    for (const file of files) {
      expect(direct.get(file), file).toEqual(cruiser.get(file));
      edges += cruiser.get(file)?.imports.length ?? 0;
    }
    expect(edges).toBeGreaterThan(files.length);
    const { records } = (await openDirectReader(PROJECT_ROOT))!.read(files);
    expect(records.size).toBeGreaterThan(files.length / 2);
  });
});
