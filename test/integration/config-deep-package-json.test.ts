import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { initRepo, removeDir, runCli } from '../helpers/temp-repo.js';

/**
 * Issue 24, item 10: "exit 3 on a deeply nested package.json". Reproduced: a value nested 100,000
 * levels deep under package.json's `airspace` key parsed fine, then measuring its size
 * (JSON.stringify) overflowed the stack: "internal error … this is a bug", exit 3, and every
 * pre-commit said "check skipped (internal error…)". Bad config is one line and exit 2.
 */
const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

describe('a deeply nested value in package.json', () => {
  it('under the airspace key is a config error naming the file, not an internal error', () => {
    const repo = initRepo({ 'src/a.ts': 'export const a = 1;\n' });
    roots.push(repo);
    for (const airspace of [deep(100_000), `{ "remote": ${deep(100_000)} }`]) {
      writeFileSync(join(repo, 'package.json'), `{ "name": "x", "airspace": ${airspace} }\n`);
      const check = runCli(repo, ['check']);
      expect(check.stderr).not.toMatch(/internal error|a bug/);
      expect(check.status, check.stderr).toBe(2);
      expect(check.stderr.trim().split('\n')).toHaveLength(1);
      expect(check.stderr).toContain(`${join(repo, 'package.json')}#airspace`);
      const hook = runCli(repo, ['hook', 'pre-commit'], {}, '');
      expect(hook.stderr).not.toMatch(/internal error/);
    }
  });

  it('elsewhere in package.json is none of our business', () => {
    const repo = initRepo({ 'src/a.ts': 'export const a = 1;\n' });
    roots.push(repo);
    writeFileSync(join(repo, 'package.json'), `{ "name": "x", "config": ${deep(100_000)} }\n`);
    const check = runCli(repo, ['check']);
    expect(check.status, check.stderr).toBe(0);
  });
});
