import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildImportGraph } from '../helpers/build-import-graph.js';
import { cruiserUsage } from '../../src/graph/run-cruise.js';
import { graphCachePath } from '../../src/graph/graph-cache.js';
import { loadImportGraph } from '../../src/graph/load-import-graph.js';
import { commitAll, gitIn, initRepo, removeDir, userStateFingerprint, writeFiles } from '../helpers/temp-repo.js';

/** The graph cache in a real repository: warm loads, incremental refreshes, worktrees, budgets. */

const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }),
  'src/main.ts': "import { a } from './a.js';\nimport { b } from './b.js';\nimport { later } from './later.js';\nexport const main = [a, b, later];\n",
  'src/a.ts': "import { c } from './c.js';\nexport const a = c;\n",
  'src/b.ts': "import { shared } from './lib';\nexport const b = shared;\n",
  'src/c.ts': 'export const c = 1;\n',
  'src/lib.js': 'export const shared = 2;\n',
  'src/uses-dir.ts': "import { d } from './dir';\nexport const x = d;\n",
  'src/gone.ts': "import { c } from './c.js';\nexport const gone = c;\n",
  'src/uses-gone.ts': "import { gone } from './gone.js';\nexport const y = gone;\n",
};

const commonDirOf = (worktree: string): string => gitIn(worktree, 'rev-parse', '--git-common-dir');
const fullGraph = async (worktree: string) => (await buildImportGraph(worktree)).graph.adjacency;

describe('graph cache in one worktree', () => {
  let repo: string;
  let common: string;
  beforeAll(() => {
    repo = initRepo(FILES);
    common = commonDirOf(repo);
  });
  afterAll(() => removeDir(repo));

  it("refresh 'never' without a cache returns no graph, says so, and does not load dependency-cruiser", async () => {
    const before = cruiserUsage();
    const loaded = await loadImportGraph(repo, common, { refresh: 'never' });
    expect(loaded.source).toBe('none');
    expect(loaded.stale).toBe(true);
    expect(loaded.warnings.map((warning) => warning.code)).toEqual(['cache-missing']);
    expect(cruiserUsage()).toEqual(before);
  });

  it("refresh 'auto' without a cache cruises everything and writes the cache under the common git dir", async () => {
    const fingerprint = userStateFingerprint(repo);
    const loaded = await loadImportGraph(repo, common, { refresh: 'auto' });
    expect(loaded.source).toBe('full');
    expect(loaded.stale).toBe(false);
    expect(loaded.filesCruised).toBe(Object.keys(FILES).length - 1);
    expect(loaded.graph.adjacency).toEqual(await fullGraph(repo));
    expect(loaded.graph.adjacency['src/main.ts']).toEqual(['src/a.ts', 'src/b.ts']);
    expect(existsSync(join(repo, '.git', 'airspace', 'graph-v1.json'))).toBe(true);
    expect(graphCachePath(join(repo, '.git'))).toBe(join(repo, '.git', 'airspace', 'graph-v1.json'));
    expect(userStateFingerprint(repo)).toBe(fingerprint);
  });

  it("a warm load (refresh 'never') reads the cache without loading dependency-cruiser", async () => {
    const before = cruiserUsage();
    const loaded = await loadImportGraph(repo, common, { refresh: 'never' });
    expect(cruiserUsage()).toEqual(before);
    expect(loaded).toMatchObject({ source: 'cache', stale: false, changedSinceBuild: 0, filesCruised: 0 });
    expect(loaded.graph.adjacency).toEqual(await fullGraph(repo));
  });

  it('after edits, an added file and a deletion, the warm load counts the changes and the refresh equals a full rebuild', async () => {
    const fingerprint = userStateFingerprint(repo);
    writeFiles(repo, {
      'src/a.ts': "import { c } from './c.js';\nimport { b } from './b.js';\nexport const a = [c, b];\n", // edited, unstaged
      'src/later.ts': 'export const later = 3;\n', // resolves main.ts's dangling import
      'src/dir/index.ts': 'export const d = 4;\n', // resolves uses-dir.ts's './dir'
      'src/lib.ts': "export const shared = 'ts';\n", // shadows lib.js for b.ts's './lib'
    });
    rmSync(join(repo, 'src/gone.ts'));
    const changedFingerprint = userStateFingerprint(repo);
    expect(changedFingerprint).not.toBe(fingerprint);

    const before = cruiserUsage();
    const warm = await loadImportGraph(repo, common, { refresh: 'never' });
    expect(cruiserUsage()).toEqual(before);
    expect(warm).toMatchObject({ source: 'cache', stale: true, changedSinceBuild: 5 });
    // The deleted file's edges are gone even before a refresh.
    expect(warm.graph.adjacency['src/gone.ts']).toBeUndefined();
    expect(warm.graph.adjacency['src/uses-gone.ts']).toEqual([]);

    const refreshed = await loadImportGraph(repo, common, { refresh: 'auto' });
    expect(refreshed).toMatchObject({ source: 'incremental', stale: false, changedSinceBuild: 0 });
    // Changed and added files, plus the files whose imports the additions and deletion affect.
    expect(refreshed.filesCruised).toBe(8);
    expect(cruiserUsage().cruises).toBeGreaterThan(before.cruises);
    const full = await fullGraph(repo);
    expect(refreshed.graph.adjacency).toEqual(full);
    expect(full['src/main.ts']).toEqual(['src/a.ts', 'src/b.ts', 'src/later.ts']);
    expect(full['src/uses-dir.ts']).toEqual(['src/dir/index.ts']);
    expect(full['src/b.ts']).toEqual(['src/lib.ts']);
    expect(userStateFingerprint(repo)).toBe(changedFingerprint);

    const warmAgain = await loadImportGraph(repo, common, { refresh: 'never' });
    expect(warmAgain).toMatchObject({ source: 'cache', stale: false, changedSinceBuild: 0 });
  });

  it('deleting a shadowing file makes its importers resolve to the fallback again', async () => {
    rmSync(join(repo, 'src/lib.ts'));
    const refreshed = await loadImportGraph(repo, common, { refresh: 'auto' });
    expect(refreshed.graph.adjacency['src/b.ts']).toEqual(['src/lib.js']);
    expect(refreshed.graph.adjacency).toEqual(await fullGraph(repo));
  });

  it('staged and committed content is recognised by blob id: nothing to re-read', async () => {
    commitAll(repo, 'work');
    const loaded = await loadImportGraph(repo, common, { refresh: 'auto' });
    expect(loaded).toMatchObject({ source: 'cache', filesCruised: 0, stale: false });
  });

  it('a budget that is already spent keeps the old cache and says it is stale', async () => {
    writeFiles(repo, { 'src/c.ts': "import { later } from './later.js';\nexport const c = later;\n" });
    const cacheFile = graphCachePath(join(repo, '.git'));
    const cached = readFileSync(cacheFile, 'utf8');
    const before = cruiserUsage();
    const loaded = await loadImportGraph(repo, common, { refresh: 'auto', budgetMs: 0 });
    expect(cruiserUsage().loads).toBe(before.loads);
    expect(loaded).toMatchObject({ stale: true, changedSinceBuild: 1, filesCruised: 0 });
    expect(loaded.warnings.map((warning) => warning.code)).toContain('refresh-over-budget');
    expect(loaded.graph.adjacency['src/c.ts']).toEqual([]);
    expect(JSON.parse(readFileSync(cacheFile, 'utf8')).files).toEqual(JSON.parse(cached).files);

    const next = await loadImportGraph(repo, common, { refresh: 'auto', budgetMs: 120_000 });
    expect(next).toMatchObject({ stale: false, source: 'incremental', filesCruised: 1 });
    expect(next.graph.adjacency['src/c.ts']).toEqual(['src/later.ts']);
  });

  it('a changed tsconfig invalidates every record', async () => {
    writeFiles(repo, { 'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }) });
    const warm = await loadImportGraph(repo, common, { refresh: 'never' });
    expect(warm.changedSinceBuild).toBe(Object.keys(warm.graph.adjacency).length);
    const loaded = await loadImportGraph(repo, common, { refresh: 'auto' });
    expect(loaded.source).toBe('full');
    expect(loaded.graph.adjacency).toEqual(await fullGraph(repo));
  });

  it('an unreadable cache is reported and rebuilt, never trusted', async () => {
    writeFileSync(graphCachePath(join(repo, '.git')), '{"version":1,"files":');
    const warm = await loadImportGraph(repo, common, { refresh: 'never' });
    expect(warm.warnings.map((warning) => warning.code)).toEqual(['cache-unreadable', 'cache-missing']);
    const loaded = await loadImportGraph(repo, common, { refresh: 'auto' });
    expect(loaded.source).toBe('full');
    expect(loaded.warnings.map((warning) => warning.code)).toEqual(['cache-unreadable']);
    expect(loaded.graph.adjacency).toEqual(await fullGraph(repo));
  });

  it("refresh 'force' re-reads every file", async () => {
    const loaded = await loadImportGraph(repo, common, { refresh: 'force' });
    expect(loaded.source).toBe('full');
    expect(loaded.filesCruised).toBe(Object.keys(loaded.graph.adjacency).length);
  });
});

describe('graph cache shared by linked worktrees', () => {
  let root: string;
  beforeAll(() => {
    root = initRepo(FILES);
  });
  afterAll(() => removeDir(root));

  it('a linked worktree finds the cache under the common git dir and only re-reads what differs', async () => {
    await loadImportGraph(root, commonDirOf(root), { refresh: 'auto' });
    const worktree = `${root}-wt`;
    gitIn(root, 'worktree', 'add', '-q', '-b', 'feature', worktree);
    try {
      const common = commonDirOf(worktree);
      expect(common).toBe(join(root, '.git'));
      const fingerprint = userStateFingerprint(worktree);
      const before = cruiserUsage();
      const warm = await loadImportGraph(worktree, common, { refresh: 'never' });
      expect(cruiserUsage()).toEqual(before);
      expect(warm).toMatchObject({ source: 'cache', stale: false, changedSinceBuild: 0 });
      expect(warm.graph.adjacency).toEqual(await fullGraph(worktree));

      writeFiles(worktree, { 'src/c.ts': "import { b } from './b.js';\nexport const c = b;\n" });
      const refreshed = await loadImportGraph(worktree, common, { refresh: 'auto' });
      expect(refreshed).toMatchObject({ source: 'incremental', filesCruised: 1 });
      expect(refreshed.graph.adjacency['src/c.ts']).toEqual(['src/b.ts']);
      expect(userStateFingerprint(worktree)).not.toBe(fingerprint); // our own edit above
      expect(existsSync(join(worktree, '.git', 'airspace'))).toBe(false);
    } finally {
      removeDir(worktree);
    }
  });
});
