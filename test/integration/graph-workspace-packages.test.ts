import { realpathSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cruiseInBatches } from '../../src/graph/cruise-in-batches.js';
import { listRepoFiles } from '../../src/graph/list-repo-files.js';
import { loadImportGraph } from '../../src/graph/load-import-graph.js';
import { initRepo, removeDir, tempDir } from '../helpers/temp-repo.js';

/**
 * The import graph of a workspace without node_modules (a fresh clone): package-name imports and
 * tsconfig aliases (root and per-package) go through the one resolver the symbol channel uses
 * (src/source/resolve-import-specifier.ts). Where dependency-cruiser resolves too (the root
 * tsconfig's `paths`), both give the same edges.
 */
const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'root', private: true, workspaces: ['packages/*'] }),
  'tsconfig.json': JSON.stringify({ compilerOptions: { paths: { '@root/*': ['./packages/*/src'] } } }),
  'packages/shared/package.json': JSON.stringify({ name: '@x/shared', main: 'dist/index.js', types: 'dist/index.d.ts' }),
  'packages/shared/src/index.ts': "export * from './math';\n",
  'packages/shared/src/math.ts': 'export const toNumber = (v: string): number => Number(v);\n',
  'packages/app/package.json': JSON.stringify({ name: '@x/app' }),
  'packages/app/tsconfig.json': JSON.stringify({ compilerOptions: { paths: { '#shared/*': ['../shared/src/*'] } } }),
  'packages/app/src/by-alias.ts': "import { toNumber } from '@root/shared';\nexport const a = toNumber('1');\n",
  'packages/app/src/by-name.ts': "import { toNumber } from '@x/shared';\nimport { z } from 'zod';\nexport const b = [toNumber('2'), z];\n",
  'packages/app/src/by-package-alias.ts': "import { toNumber } from '#shared/math';\nexport const c = toNumber('3');\n",
  'packages/app/src/lost.ts': "import { gone } from '@x/shared-gone';\nexport const d = gone;\n",
};

let repo: string;
let files: string[];

beforeAll(async () => {
  repo = initRepo(FILES, realpathSync(tempDir()));
  files = [...(await listRepoFiles(repo)).sources.keys()].sort();
});
afterAll(() => removeDir(repo));

describe('the import graph of a workspace', () => {
  it('follows package names, root and per-package aliases to the package sources', async () => {
    const { graph } = await loadImportGraph(repo, '.git', { refresh: 'auto' });
    expect(graph.adjacency['packages/app/src/by-alias.ts']).toEqual(['packages/shared/src/index.ts']);
    expect(graph.adjacency['packages/app/src/by-name.ts']).toEqual(['packages/shared/src/index.ts']);
    expect(graph.adjacency['packages/app/src/by-package-alias.ts']).toEqual(['packages/shared/src/math.ts']);
    expect(graph.adjacency['packages/app/src/lost.ts']).toEqual([]);
  });

  it('agrees with dependency-cruiser where dependency-cruiser resolves (the root tsconfig paths)', async () => {
    const layoutFiles = [...(await listRepoFiles(repo)).configs.keys()];
    const direct = await cruiseInBatches(repo, files, { tsconfig: 'tsconfig.json', layoutFiles, now: Date.now });
    const cruiser = await cruiseInBatches(repo, files, { tsconfig: 'tsconfig.json', now: Date.now, direct: false });
    expect(direct.cruised.get('packages/app/src/by-alias.ts')).toEqual(cruiser.cruised.get('packages/app/src/by-alias.ts'));
    expect(direct.cruised.get('packages/shared/src/index.ts')).toEqual(cruiser.cruised.get('packages/shared/src/index.ts'));
    // Without node_modules dependency-cruiser cannot follow `@x/shared`: the one resolver can.
    expect(cruiser.cruised.get('packages/app/src/by-name.ts')?.imports).toEqual([]);
    expect(direct.cruised.get('packages/app/src/by-name.ts')).toEqual({ imports: ['packages/shared/src/index.ts'], unresolved: [] });
    expect(direct.cruised.get('packages/app/src/lost.ts')).toEqual({ imports: [], unresolved: ['@x/shared-gone'] });
  });
});
