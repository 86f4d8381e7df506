import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { installShim } from '../../../src/install/hooks-dir-shim.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('installShim', () => {
  it('a directory where the hook goes: nothing written, said as its own kind (was EISDIR, "internal error")', () => {
    const hooks = mkdtempSync(join(tmpdir(), 'airspace-shim-'));
    dirs.push(hooks);
    mkdirSync(join(hooks, 'pre-commit'));
    expect(installShim(hooks, 'pre-commit', false)).toEqual({ kind: 'not-a-file', hook: 'pre-commit', path: join(hooks, 'pre-commit') });
    expect(statSync(join(hooks, 'pre-commit')).isDirectory()).toBe(true);
    expect(installShim(hooks, 'pre-push', false)).toMatchObject({ kind: 'written', hook: 'pre-push' });
  });
});
