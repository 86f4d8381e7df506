import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, removeDir, tempDir, testEnv } from '../helpers/temp-repo.js';

/** A working directory deleted under the process (issue 24, item 10): one line, never a stack trace. */
const root = tempDir();
afterAll(() => removeDir(root));

function inDeletedDir(args: string): { status: number | null; stderr: string } {
  const script = `mkdir gone && cd gone && rmdir ../gone && exec "${process.execPath}" "${BIN}" ${args}`;
  const run = spawnSync('sh', ['-c', script], { cwd: root, env: testEnv(), encoding: 'utf8', timeout: 60_000 });
  return { status: run.status, stderr: run.stderr };
}

describe('a deleted working directory', () => {
  it('a command: one line, exit 2', () => {
    const run = inDeletedDir('check');
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      'airspace-hooks: the current directory no longer exists (deleted or moved); cd into the repository and run the command again',
    ]);
  });

  it('a hook: one line, lets the commit through', () => {
    const run = inDeletedDir('hook pre-commit');
    expect(run.status).toBe(0);
    expect(run.stderr).toContain('the current directory no longer exists');
    expect(run.stderr).not.toMatch(/at |ENOENT|internal error/);
  });
});
