import { closeSync, openSync, readdirSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LARGE_UNTRACKED_BYTES } from '../../src/git/snapshot-worktree.js';
import { gitIn, initRepo, removeDir, runCli } from '../helpers/temp-repo.js';

/**
 * A large untracked file (issue 24, item 9): it counts as a whole-file edit, but its bytes never
 * enter the object store — a 200 MB file added 190 MB to .git/objects on every change.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function objectBytes(gitDir: string): number {
  let total = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else total += statSync(path).size;
    }
  };
  walk(join(gitDir, 'objects'));
  return total;
}

describe('a large untracked file', () => {
  it('is a whole-file edit of the working set, and the object store does not grow by its size', () => {
    const dir = initRepo({ 'a.txt': 'a\n' });
    dirs.push(dir);
    gitIn(dir, 'switch', '-q', '-c', 'work');
    // Random-looking bytes, so git's zlib could not shrink a copy to nothing.
    const size = LARGE_UNTRACKED_BYTES + 1024 * 1024;
    const fd = openSync(join(dir, 'video.bin'), 'w');
    const chunk = Buffer.alloc(1024 * 1024);
    for (let written = 0; written < size; written += chunk.length) {
      for (let i = 0; i < chunk.length; i += 4) chunk.writeUInt32LE((Math.random() * 2 ** 32) >>> 0, i);
      writeSync(fd, chunk);
    }
    closeSync(fd);
    const before = objectBytes(join(dir, '.git'));
    for (let i = 0; i < 3; i++) {
      const run = runCli(dir, ['scan', '--agent', 'base=main', '--json']);
      expect(run.status, run.stderr).toBe(0);
    }
    const report = JSON.parse(runCli(dir, ['check', '--json']).stdout) as { agents: { id: string; uncommittedFiles: number }[] };
    expect(report.agents.find((a) => a.id === 'work')?.uncommittedFiles).toBe(1);
    expect(objectBytes(join(dir, '.git')) - before).toBeLessThan(512 * 1024);
  });
});
