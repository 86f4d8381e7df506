import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildImportGraph } from '../helpers/build-import-graph.js';
import { graphHealth } from '../../src/graph/graph-health.js';
import { loadImportGraph } from '../../src/graph/load-import-graph.js';
import { gitIn, initRepo, removeDir, writeFiles } from '../helpers/temp-repo.js';

/** Loud failures: an empty graph in a repository full of imports is reported, never a silent 0. */

describe('graph health', () => {
  const repos: string[] = [];
  const repo = (files: Record<string, string>): string => {
    const dir = initRepo(files);
    repos.push(dir);
    return dir;
  };
  afterAll(() => repos.forEach(removeDir));

  it("warns 'graph-empty' when files import each other but no edge resolves", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 6; i++) files[`src/f${i}.ts`] = `import { x } from './not-there-${i}.js';\nexport const y${i} = x;\n`;
    const dir = repo(files);
    const loaded = await loadImportGraph(dir, gitIn(dir, 'rev-parse', '--git-common-dir'), { refresh: 'auto' });
    expect(loaded.warnings.map((warning) => warning.code)).toEqual(['graph-empty']);
    expect(loaded.warnings[0]?.message).toMatch(/6 of 6 source files/);
    // The warm path says it too, from the cache.
    const warm = await loadImportGraph(dir, gitIn(dir, 'rev-parse', '--git-common-dir'), { refresh: 'never' });
    expect(warm.warnings.map((warning) => warning.code)).toEqual(['graph-empty']);
  });

  it('does not warn about a repository whose files import nothing of each other', async () => {
    const dir = repo({
      'a.ts': "import fs from 'node:fs';\nexport const a = fs;\n",
      'b.ts': 'export const b = 1;\n',
      'c.js': 'module.exports = 1;\n',
      'd.ts': '',
    });
    const built = await buildImportGraph(dir);
    expect(built.warnings).toEqual([]);
  });

  describe('doctor facts', () => {
    let dir: string;
    beforeAll(() => {
      dir = repo({
        'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }),
        'src/a.ts': "import { b } from './b.js';\nexport const a = b;\n",
        'src/b.ts': 'export const b = 1;\n',
      });
    });

    it('reports TypeScript, the tsconfig and the cache', async () => {
      const common = gitIn(dir, 'rev-parse', '--git-common-dir');
      const before = await graphHealth(dir, common);
      expect(before.typescript).toEqual({ available: true, readWithOxc: true, version: 'typescript@5.9.3' });
      expect(before.tsconfig).toBe('tsconfig.json');
      expect(before.cache).toMatchObject({ builtAt: undefined, files: 0, edges: 0 });
      expect(before.warnings.map((warning) => warning.code)).toEqual(['cache-missing']);
      expect(before.ok).toBe(true);

      await loadImportGraph(dir, common, { refresh: 'auto' });
      writeFiles(dir, { 'src/c.ts': 'export const c = 1;\n' });
      const after = await graphHealth(dir, common);
      expect(after.cache).toMatchObject({ files: 2, edges: 1, changedSinceBuild: 1 });
      expect(after.cache.builtAt).toBeTypeOf('number');
      expect(after.warnings).toEqual([]);
    });

    it('reports a tsconfig it cannot parse, and still builds the graph', async () => {
      writeFiles(dir, { 'tsconfig.json': '{ "compilerOptions": { "module": ' });
      const common = gitIn(dir, 'rev-parse', '--git-common-dir');
      const health = await graphHealth(dir, common);
      expect(health.warnings.map((warning) => warning.code)).toContain('tsconfig-unreadable');
      expect(health.ok).toBe(false);
      const loaded = await loadImportGraph(dir, common, { refresh: 'auto' });
      expect(loaded.warnings.map((warning) => warning.code)).toContain('tsconfig-unreadable');
      expect(loaded.graph.adjacency['src/a.ts']).toEqual(['src/b.ts']);
    });
  });
});
