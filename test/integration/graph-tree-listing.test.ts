import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveRepo } from '../../src/git/resolve-repo.js';
import { snapshotWorktree } from '../../src/git/snapshot-worktree.js';
import { listRepoFiles } from '../../src/graph/list-repo-files.js';
import { listTreeFiles } from '../../src/graph/list-tree-files.js';
import { loadImportGraph } from '../../src/graph/load-import-graph.js';
import { initRepo, removeDir, testEnv, userStateFingerprint, writeFiles } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

describe('the source listing from the ownship snapshot (one ls-tree)', () => {
  it('equals the index + status + hash-object listing: modified, staged, deleted, untracked, ignored', async () => {
    const dir = initRepo({
      'src/a.ts': 'export const a = 1;\n',
      'src/b.ts': "import { a } from './a.js';\n",
      'src/gone.ts': 'x\n',
      'tsconfig.json': '{}\n',
      '.gitignore': 'out/\n',
      'README.md': '# r\n',
    });
    dirs.push(dir);
    writeFiles(dir, {
      'src/a.ts': 'export const a = 2;\n',
      'src/new.ts': 'export {};\n',
      'out/skip.ts': 'ignored\n',
      'tsconfig.json': '{ "compilerOptions": {} }\n',
    });
    rmSync(join(dir, 'src', 'gone.ts'));
    const before = userStateFingerprint(dir);
    const repo = await resolveRepo(dir);
    const snapshot = await snapshotWorktree(repo);
    expect(snapshot.dirty).toBe(true);
    const fromTree = await listTreeFiles(dir, snapshot.commit!);
    const fromIndex = await listRepoFiles(dir);
    expect(Object.fromEntries(fromTree.sources)).toEqual(Object.fromEntries(fromIndex.sources));
    expect(Object.fromEntries(fromTree.configs)).toEqual(Object.fromEntries(fromIndex.configs));
    expect([...fromTree.sources.keys()].sort()).toEqual(['src/a.ts', 'src/b.ts', 'src/new.ts']);
    expect(userStateFingerprint(dir)).toBe(before);
  });

  it('loadImportGraph with worktreeTree reports a missing cache like the plain listing', async () => {
    const dir = initRepo({ 'src/a.ts': 'export const a = 1;\n' });
    dirs.push(dir);
    const repo = await resolveRepo(dir);
    const loaded = await loadImportGraph(dir, repo.commonDir, { refresh: 'never', worktreeTree: repo.head! });
    expect(loaded).toMatchObject({ source: 'none', stale: true, changedSinceBuild: 1 });
  });
});
