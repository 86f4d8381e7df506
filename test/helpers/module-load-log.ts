import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, initRepo, removeDir, tempDir, testEnv } from './temp-repo.js';

/**
 * Which modules a real CLI run loads, measured rather than assumed: a module-resolution hook
 * (`node --import <recorder>`) appends every URL the process resolves to the file named by
 * AIRSPACE_LOAD_LOG. Used by the tests that keep heavy dependencies off paths that must not pay
 * for them (test/integration/mcp-lazy-load.test.ts, test/integration/cli-bundle.test.ts).
 */
export function writeLoadRecorder(dir: string): string {
  const recorder = join(dir, 'record-loads.mjs');
  const hooks = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) { const result = await next(specifier, context); appendFileSync(process.env.AIRSPACE_LOAD_LOG, result.url + '\\n'); return result; }`;
  writeFileSync(recorder, `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});\n`);
  return recorder;
}

/** Runs bin/airspace-hooks.js with the recorder in `cwd`; the run's result and the URLs it resolved. */
export function runRecordingLoads(
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

/** A one-file repository and a scratch directory holding the recorder; `dispose` removes both. */
export function loadRecordingFixture(): { repo: string; dir: string; recorder: string; dispose: () => void } {
  const repo = initRepo({ 'a.ts': 'export const a = 1;\n' });
  const dir = tempDir();
  return { repo, dir, recorder: writeLoadRecorder(dir), dispose: () => [repo, dir].forEach(removeDir) };
}
