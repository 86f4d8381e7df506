import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tryLock, unlock, withLock } from '../../../src/fs/lock-file.js';
import { updateJsonFile } from '../../../src/state/json-file.js';
import { removeDir, tempDir } from '../../helpers/temp-repo.js';

const MAX_AGE = 10_000;

function deadPid(): number {
  return spawnSync(process.execPath, ['-e', ''], { encoding: 'utf8' }).pid!;
}

describe('the one lock file', () => {
  const dir = tempDir();
  afterAll(() => removeDir(dir));

  it('a lock left by a dead process is taken over at once: the update does not wait for it', async () => {
    const file = join(dir, 'history.json');
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: deadPid(), startedAt: Date.now() }));
    const started = Date.now();
    await updateJsonFile(file, 1000, () => ({ n: 1 }));
    // A live holder would cost the whole 2 s wait.
    expect(Date.now() - started).toBeLessThan(1000);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ n: 1 });
    expect(readdirSync(dir)).toEqual(['history.json']);
  });

  it('a killed holder its parent has not reaped yet (a zombie) holds nothing: its lock is taken over', async () => {
    // `sh` forks `sleep 0`, then becomes `sleep 5`, which never reaps it: a zombie for 5 s.
    const parent = spawn('sh', ['-c', 'sleep 0 & exec sleep 5'], { stdio: 'ignore' });
    let zombie: number | undefined;
    for (let i = 0; i < 500 && zombie === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const children = spawnSync('ps', ['-o', 'pid=,stat=', '--ppid', String(parent.pid)], { encoding: 'utf8' }).stdout;
      zombie = children
        .split('\n')
        .map((line) => line.trim().split(/\s+/))
        .find(([, stat]) => stat?.startsWith('Z'))
        ?.map(Number)[0];
    }
    expect(zombie, 'a zombie child').toBeDefined();
    const file = join(dir, 'zombie.lock');
    writeFileSync(file, JSON.stringify({ pid: zombie, startedAt: Date.now(), token: 'dead' }));
    const token = tryLock(file, Date.now(), MAX_AGE);
    parent.kill('SIGKILL');
    expect(token).toBeDefined();
    unlock(file, token!);
  });

  it('a live holder keeps it; only the token that took it releases it', () => {
    const lock = join(dir, 'a.lock');
    const token = tryLock(lock, Date.now(), MAX_AGE);
    expect(token).toBeDefined();
    expect(tryLock(lock, Date.now(), MAX_AGE)).toBeUndefined();
    unlock(lock, 'not-the-token');
    expect(existsSync(lock)).toBe(true);
    unlock(lock, token!);
    expect(existsSync(lock)).toBe(false);
  });

  it('a holder older than the age limit, and a lock unreadable for a second, are stale', () => {
    const lock = join(dir, 'b.lock');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, startedAt: Date.now() - 2 * MAX_AGE }));
    const token = tryLock(lock, Date.now(), MAX_AGE);
    expect(token).toBeDefined();
    unlock(lock, token!);
    writeFileSync(lock, '');
    expect(tryLock(lock, Date.now(), MAX_AGE)).toBeUndefined(); // may be being written this instant
    utimesSync(lock, new Date(Date.now() - 5000), new Date(Date.now() - 5000));
    expect(tryLock(lock, Date.now(), MAX_AGE)).toBeDefined();
  });

  it('holders in one process take turns: no update is lost', async () => {
    const file = join(dir, 'count.json');
    await Promise.all(Array.from({ length: 20 }, () => updateJsonFile(file, 1000, (current) => ({ n: ((current as { n?: number } | null)?.n ?? 0) + 1 }))));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ n: 20 });
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('withLock runs the work without the lock once its wait is over', async () => {
    const lock = join(dir, 'c.lock');
    const token = tryLock(lock, Date.now(), MAX_AGE)!;
    expect(await withLock(lock, { waitMs: 50, maxAgeMs: MAX_AGE }, async () => 'ran')).toBe('ran');
    expect(existsSync(lock)).toBe(true); // still the first holder's
    unlock(lock, token);
  });
});
