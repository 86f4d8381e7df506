import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { BIN, initRepo, removeDir, tempDir, testEnv } from './temp-repo.js';

/**
 * Which modules a real CLI run loads, measured rather than assumed: a module-resolution hook
 * (`node --import <recorder>`) appends every URL the process resolves to the file named by
 * AIRSPACE_LOAD_LOG. Used by the tests that keep heavy dependencies off paths that must not pay
 * for them (test/integration/mcp-lazy-load.test.ts, test/integration/cli-bundle.test.ts).
 */
function writeLoadRecorder(dir: string): string {
  const recorder = join(dir, 'record-loads.mjs');
  const hooks = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) { const result = await next(specifier, context); appendFileSync(process.env.AIRSPACE_LOAD_LOG, result.url + '\\n'); return result; }`;
  writeFileSync(recorder, `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});\n`);
  return recorder;
}

/** Runs bin/airspace-hooks.js with the recorder in `cwd`; the run's result and the URLs it resolved. */
function runRecordingLoads(
  recorder: string,
  cwd: string,
  log: string,
  args: readonly string[],
  input = '',
): { result: SpawnSyncReturns<string>; urls: string[] } {
  writeFileSync(log, '');
  const result = spawnSync(process.execPath, ['--import', recorder, BIN, ...args], {
    cwd,
    env: testEnv({ AIRSPACE_LOAD_LOG: log }),
    encoding: 'utf8',
    input,
    timeout: 60_000,
  });
  return { result, urls: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

/**
 * The calling test file's fixture, made in its beforeAll and removed in its afterAll: a one-file
 * repository (`repo`) and a scratch directory with the recorder. `loads(args, input)` runs the CLI
 * there once with the recorder: the run's result and the URLs it resolved.
 */
export function recordLoadsInThisFile(): {
  readonly repo: string;
  loads: (args: readonly string[], input?: string) => { result: SpawnSyncReturns<string>; urls: string[] };
} {
  let fixture: { repo: string; dir: string; recorder: string } | undefined;
  let runs = 0;
  beforeAll(() => {
    const repo = initRepo({ 'a.ts': 'export const a = 1;\n' });
    const dir = tempDir();
    fixture = { repo, dir, recorder: writeLoadRecorder(dir) };
  });
  afterAll(() => {
    if (fixture) [fixture.repo, fixture.dir].forEach(removeDir);
  });
  const made = () => {
    if (!fixture) throw new Error('the load-recording fixture is made in beforeAll: use it inside a test');
    return fixture;
  };
  return {
    get repo() {
      return made().repo;
    },
    loads: (args, input = '') => {
      const { repo, dir, recorder } = made();
      runs += 1;
      return runRecordingLoads(recorder, repo, join(dir, `${runs}.log`), args, input);
    },
  };
}
