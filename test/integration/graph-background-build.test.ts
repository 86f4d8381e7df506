import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphCachePath } from '../../src/graph/graph-cache.js';
import { loadImportGraph } from '../../src/graph/load-import-graph.js';
import { readGraphBuildStatus } from '../../src/graph/graph-build-status.js';
import { requestGraphBuild } from '../../src/graph/request-graph-build.js';
import { acquireBuildLock, buildLockPath, releaseBuildLock } from '../../src/graph/graph-build-lock.js';
import { BIN, gitIn, initRepo, removeDir, runCli, testEnv } from '../helpers/temp-repo.js';

/** The import graph built off the critical path: a detached, locked, resumable background build. */

const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }),
  'src/main.ts': "import { a } from './a.js';\nexport const main = a;\n",
  'src/a.ts': "import { c } from './c.js';\nexport const a = c;\n",
  'src/c.ts': 'export const c = 1;\n',
};
const ON = { AIRSPACE_GRAPH_BACKGROUND: 'on' };

/** Polls a condition written by another process (no event to await across processes), with a deadline. */
async function until(condition: () => boolean, what: string, limitMs = 240_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The pid of a process that has exited (a lock left by a killed builder). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('background graph build', () => {
  let repo: string;
  let common: string;
  beforeAll(() => {
    repo = initRepo(FILES);
    common = join(repo, '.git');
  });
  afterAll(() => removeDir(repo));

  it('a hook with no graph checks text now and starts one detached build that leaves the cache and no lock', async () => {
    const hook = runCli(repo, ['hook', 'pre-commit', '--json'], ON);
    expect(hook.status).toBe(0);
    const report = JSON.parse(hook.stdout) as { scanned: { graph: { source: string } } };
    expect(report.scanned.graph.source).toBe('none');
    await until(() => existsSync(graphCachePath(common)) && !existsSync(buildLockPath(common)), 'the background build to finish');
    expect(readGraphBuildStatus(common)).toEqual({ state: 'idle' });
    const status = JSON.parse(readFileSync(join(common, 'airspace', 'graph-build.json'), 'utf8')) as { outcome: string; total: number };
    expect(status).toMatchObject({ outcome: 'done', total: 3 });
    const warm = await loadImportGraph(repo, common, { refresh: 'never' });
    expect(warm).toMatchObject({ source: 'cache', stale: false });
    expect(warm.graph.adjacency['src/main.ts']).toEqual(['src/a.ts']);
  }, 300_000); // a detached process loading dependency-cruiser on a loaded machine

  it('waits for the process that asked (a hook) to exit before it reads a file', async () => {
    const fresh = initRepo(FILES);
    try {
      const freshCommon = join(fresh, '.git');
      // The asking hook, still running.
      const asker = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120_000)'], { stdio: 'ignore' });
      const builder = spawn(process.execPath, [BIN, 'graph', 'build', '--background', '--after-pid', String(asker.pid)], {
        cwd: fresh,
        env: testEnv(ON),
        stdio: 'ignore',
      });
      const progress = () =>
        existsSync(join(freshCommon, 'airspace', 'graph-build.json')) ? readFileSync(join(freshCommon, 'airspace', 'graph-build.json'), 'utf8') : '';
      await until(() => progress().includes(`"waitingFor":${asker.pid}`), 'the build to wait for the asker');
      expect(readGraphBuildStatus(freshCommon)).toMatchObject({ state: 'building', pid: builder.pid });
      expect(existsSync(graphCachePath(freshCommon))).toBe(false);
      asker.kill('SIGKILL');
      await until(() => existsSync(graphCachePath(freshCommon)) && !existsSync(buildLockPath(freshCommon)), 'the build to finish once the asker is gone');
      expect(JSON.parse(progress())).toMatchObject({ outcome: 'done', total: 3 });
    } finally {
      removeDir(fresh);
    }
  }, 300_000);

  it('one build at a time: a live lock makes a request a no-op and reads as building', () => {
    expect(acquireBuildLock(common, Date.now())).toBe(true);
    try {
      expect(acquireBuildLock(common, Date.now())).toBe(false);
      const request = requestGraphBuild({ toplevel: repo, commonDir: common, env: ON });
      expect(request).toMatchObject({ started: false, reason: 'running', status: { state: 'building', pid: process.pid } });
      expect(runCli(repo, ['graph', 'build', '--json'], ON).stdout).toContain('"state": "building"');
    } finally {
      releaseBuildLock(common);
    }
    expect(existsSync(buildLockPath(common))).toBe(false);
  });

  it('a lock left by a dead builder is recovered, and so is a lock older than any build', () => {
    writeFileSync(buildLockPath(common), JSON.stringify({ pid: deadPid(), startedAt: Date.now() }));
    expect(readGraphBuildStatus(common)).toEqual({ state: 'idle' });
    expect(acquireBuildLock(common, Date.now())).toBe(true);
    releaseBuildLock(common);
    writeFileSync(buildLockPath(common), JSON.stringify({ pid: process.pid, startedAt: Date.now() - 3 * 60 * 60 * 1000 }));
    expect(acquireBuildLock(common, Date.now())).toBe(true);
    releaseBuildLock(common);
  });

  it('a failed build is reported on one printable line', () => {
    writeFileSync(
      join(common, 'airspace', 'graph-build.json'),
      JSON.stringify({ pid: 1, startedAt: 1, updatedAt: 2, done: 0, total: 0, outcome: 'failed', error: 'boom\u001b[31m\nsecond line' }),
    );
    const status = readGraphBuildStatus(common);
    expect(status).toEqual({ state: 'failed', at: 2, error: 'boom [31m second line' });
  });

  it('a build saves its progress in batches: stopped half way, the next run has the first batches', async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 450; i++)
      many[`gen/m${String(i).padStart(3, '0')}.ts`] = i === 0 ? 'export const x = 0;\n' : `import { x } from './m000.js';\nexport const y${i} = x;\n`;
    const big = initRepo({ ...FILES, ...many });
    try {
      const bigCommon = join(big, '.git');
      const stopped = await loadImportGraph(big, bigCommon, {
        refresh: 'auto',
        checkpointEvery: 100,
        onProgress: (event) => {
          // The machine dies as the second batch starts (after the first 400 files).
          if (event.phase === 'cruise' && (event.done ?? 0) > 0 && event.done !== event.total) throw new Error('killed');
        },
      });
      expect(stopped.warnings.map((w) => w.code)).toContain('cruise-failed');
      const resumed = await loadImportGraph(big, bigCommon, { refresh: 'never' });
      expect(resumed.source).toBe('cache');
      expect(resumed.changedSinceBuild).toBe(453 - 400);
      expect(resumed.graph.adjacency['gen/m001.ts']).toEqual(['gen/m000.ts']);
      expect(gitIn(big, 'status', '--porcelain')).toBe('');
    } finally {
      removeDir(big);
    }
  }, 300_000);
});
