import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, initRepo, removeDir, tempDir, testEnv } from '../helpers/temp-repo.js';

/**
 * The MCP SDK and zod are the heaviest dependencies: they must load in `mcp` only, never on the
 * hook path or in `check`. Measured, not assumed: a module-resolution hook records every URL the
 * real CLI resolves.
 */
let repo: string;
let dir: string;
let loader: string;

beforeAll(() => {
  repo = initRepo({ 'a.ts': 'export const a = 1;\n' });
  dir = tempDir();
  loader = join(dir, 'record-loads.mjs');
  const hooks = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) { const result = await next(specifier, context); appendFileSync(process.env.AIRSPACE_LOAD_LOG, result.url + '\\n'); return result; }`;
  writeFileSync(loader, `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});\n`);
});

afterAll(() => {
  removeDir(repo);
  removeDir(dir);
});

function loadedBy(args: readonly string[], input?: string): string[] {
  const log = join(dir, `${args[0]}.log`);
  writeFileSync(log, '');
  spawnSync(process.execPath, ['--import', loader, BIN, ...args], {
    cwd: repo,
    env: testEnv({ AIRSPACE_LOAD_LOG: log }),
    encoding: 'utf8',
    input: input ?? '',
    timeout: 60_000,
  });
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

const heavy = (urls: readonly string[]) => urls.filter((url) => /node_modules\/(@modelcontextprotocol|zod)\//.test(url));

describe('the MCP SDK loads only in `mcp`', () => {
  it('is not resolved by the pre-commit hook nor by check', () => {
    const hook = loadedBy(['hook', 'pre-commit']);
    const check = loadedBy(['check', '--json']);
    expect(hook.length).toBeGreaterThan(0);
    expect(check.some((url) => url.endsWith('/check-command.js'))).toBe(true);
    expect(heavy(hook)).toEqual([]);
    expect(heavy(check)).toEqual([]);
  });

  it('is resolved by mcp (so the check above can fail)', () => {
    expect(heavy(loadedBy(['mcp'])).length).toBeGreaterThan(0);
  });
});
