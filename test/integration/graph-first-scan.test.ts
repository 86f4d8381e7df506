import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLockPath } from '../../src/graph/graph-build-lock.js';
import { graphCachePath } from '../../src/graph/graph-cache.js';
import { loadImportGraph } from '../../src/graph/load-import-graph.js';
import { initRepo, removeDir, runCli } from '../helpers/temp-repo.js';

/**
 * The first `scan` a person runs in a small repository, with the background build on as a user
 * has it: the command waits for the small graph (within the graph budget) instead of answering
 * "not built yet, run `scan`" — the command just run. A repository too large to wait for gets
 * no cruise on that path (the background build does it), and the hint names `graph build`.
 */
const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }),
  'src/main.ts': "import { a } from './a.js';\nexport const main = a;\n",
  'src/a.ts': "import { c } from './c.js';\nexport const a = c;\n",
  'src/c.ts': 'export const c = 1;\n',
};
const ON = { AIRSPACE_GRAPH_BACKGROUND: 'on' };

let repo: string;
beforeAll(() => {
  repo = initRepo(FILES);
});
afterAll(() => removeDir(repo));

describe('the first scan in a small repository', () => {
  it('builds the small graph now: the dependency channel is there, no "not built yet", no background build', () => {
    const text = runCli(repo, ['scan'], ON);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout + text.stderr).not.toContain('not built yet');
    expect(text.stdout + text.stderr).not.toMatch(/run `airspace-hooks check --fetch` or `scan`/);
    expect(existsSync(graphCachePath(join(repo, '.git')))).toBe(true);
    // Built inline: no detached builder was started (no lock, nothing left running).
    expect(existsSync(buildLockPath(join(repo, '.git')))).toBe(false);
    const json = runCli(repo, ['scan', '--json'], ON);
    expect((JSON.parse(json.stdout) as { scanned: { graph: { source: string; files: number } } }).scanned.graph).toMatchObject({ source: 'cache', files: 3 });
  });

  it('a repository over the limit is not cruised on the way: no graph, the cache-missing answer', async () => {
    const large = initRepo(FILES);
    try {
      const loaded = await loadImportGraph(large, join(large, '.git'), { refresh: 'auto', coldCruiseMaxFiles: 2 });
      expect(loaded).toMatchObject({ source: 'none', filesCruised: 0 });
      expect(loaded.warnings.map((w) => w.code)).toEqual(['cache-missing']);
      expect(loaded.warnings[0]?.message).toContain('`airspace-hooks graph build`');
      expect(existsSync(graphCachePath(join(large, '.git')))).toBe(false);
    } finally {
      removeDir(large);
    }
  });
});
