import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildImportGraph } from '../helpers/build-import-graph.js';
import { initRepo, removeDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * One small monorepo exercising every resolution rule the dependency channel relies on, cruised by
 * the real dependency-cruiser.
 */
const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, paths: { '@app/b/*': ['./packages/b/src/*'] } },
  }),
  'package.json': JSON.stringify({ name: 'demo', type: 'module', dependencies: { 'left-pad': '1.0.0' } }),
  '.gitignore': 'node_modules/\n',
  // .js specifiers that only exist as .ts, an alias into another package, a type-only import,
  // a core module, a package, and an import that resolves to nothing.
  'packages/a/src/main.ts': [
    "import { helper } from './helper.js';",
    "import { b } from '@app/b/b.js';",
    "import type { Shape } from './types.js';",
    "import { readFileSync } from 'node:fs';",
    "import pad from 'left-pad';",
    "import { ghost } from './ghost.js';",
    'export const main = (s: Shape) => [helper, b, readFileSync, pad, ghost, s];',
  ].join('\n'),
  'packages/a/src/helper.ts': 'export const helper = 1;\n',
  'packages/a/src/types.ts': 'export interface Shape { n: number }\n',
  // Index resolution: './util' is a directory with an index.ts.
  'packages/b/src/b.ts': "import { u } from './util';\nexport const b = u;\n",
  'packages/b/src/util/index.ts': "export { u } from './u.js';\n",
  'packages/b/src/util/u.ts': 'export const u = 2;\n',
  // CommonJS and friends.
  'lib/entry.cjs': "const dep = require('./dep');\nconst core = require('path');\nmodule.exports = { dep, core };\n",
  'lib/dep.js': 'module.exports = 3;\n',
  'lib/esm.mjs': "import x from './dep.js';\nexport default x;\n",
  'lib/view.tsx': "import { helper } from '../packages/a/src/helper.js';\nexport const View = () => <div>{helper}</div>;\n",
  // Files that do not parse: no edges, no crash.
  'broken/bad.ts': "import { a } from '../lib/dep.js'\nexport const = ;;; {{{ )\n",
  'broken/bad.js': 'import ;;; from (((\n',
  // A package inside node_modules (ignored by git): never a node, never followed.
  'node_modules/left-pad/package.json': JSON.stringify({ name: 'left-pad', main: 'index.js' }),
  'node_modules/left-pad/index.js': "module.exports = require('./impl');\n",
  'node_modules/left-pad/impl.js': 'module.exports = (s) => s;\n',
};

describe('buildImportGraph resolves imports as TypeScript does', () => {
  let repo: string;
  let adjacency: Record<string, readonly string[]>;
  let unresolved: Record<string, readonly string[]>;

  beforeAll(async () => {
    repo = initRepo(FILES);
    const built = await buildImportGraph(repo);
    adjacency = { ...built.graph.adjacency };
    unresolved = { ...built.unresolved };
  });
  afterAll(() => removeDir(repo));

  it('maps .js specifiers to .ts files, follows tsconfig paths into another package, keeps type-only imports', () => {
    expect(adjacency['packages/a/src/main.ts']).toEqual(['packages/a/src/helper.ts', 'packages/a/src/types.ts', 'packages/b/src/b.ts']);
  });

  it('drops core modules and node_modules packages, and records what did not resolve', () => {
    expect(unresolved['packages/a/src/main.ts']).toEqual(['./ghost.js']);
    expect(Object.keys(adjacency).some((path) => path.includes('node_modules'))).toBe(false);
  });

  it('resolves a directory import to its index file', () => {
    expect(adjacency['packages/b/src/b.ts']).toEqual(['packages/b/src/util/index.ts']);
    expect(adjacency['packages/b/src/util/index.ts']).toEqual(['packages/b/src/util/u.ts']);
  });

  it('reads CommonJS require, .mjs and .tsx', () => {
    expect(adjacency['lib/entry.cjs']).toEqual(['lib/dep.js']);
    expect(adjacency['lib/esm.mjs']).toEqual(['lib/dep.js']);
    expect(adjacency['lib/view.tsx']).toEqual(['packages/a/src/helper.ts']);
  });

  it('gives a file that does not parse no edges (or what it could read), and does not crash', () => {
    expect(adjacency['broken/bad.js']).toEqual([]);
    expect(adjacency['broken/bad.ts']?.every((target) => target === 'lib/dep.js')).toBe(true);
    expect(adjacency['lib/dep.js']).toEqual([]);
  });

  it('lists every source file of the worktree, untracked ones included', async () => {
    writeFiles(repo, { 'packages/a/src/new.ts': "import { helper } from './helper.js';\n" });
    const built = await buildImportGraph(repo);
    expect(built.graph.adjacency['packages/a/src/new.ts']).toEqual(['packages/a/src/helper.ts']);
    expect(built.warnings).toEqual([]);
  });

  it('cruises only the given files when asked', async () => {
    const built = await buildImportGraph(repo, ['packages/b/src/b.ts', 'README.md']);
    expect(built.graph.adjacency).toEqual({ 'packages/b/src/b.ts': ['packages/b/src/util/index.ts'] });
    expect(built.filesCruised).toBe(1);
  });
});
