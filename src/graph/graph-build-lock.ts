import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One background graph build at a time across all worktrees: a lock file under the common git
 * dir holding the builder's pid and start time. Created with O_EXCL, so two builders racing for
 * it cannot both win. A lock whose process is gone (killed, machine rebooted) or that is older
 * than any build should take is stale: it is renamed away (rename is atomic, so of two recoverers
 * only one moves it) and the lock is taken again.
 */

export interface BuildLock {
  readonly pid: number;
  /** Epoch ms the build started. */
  readonly startedAt: number;
}

/** A build holding the lock longer than this is presumed dead (pid reuse, a hung process). */
export const LOCK_MAX_AGE_MS = 2 * 60 * 60 * 1000;

export function buildLockPath(commonDir: string): string {
  return join(commonDir, 'airspace', 'graph-build.lock');
}

/** The lock as written, or undefined when there is none or it is unreadable (being written). */
export function readBuildLock(commonDir: string): BuildLock | undefined {
  try {
    const data = JSON.parse(readFileSync(buildLockPath(commonDir), 'utf8')) as Partial<BuildLock>;
    if (typeof data.pid !== 'number' || typeof data.startedAt !== 'number') return undefined;
    return { pid: data.pid, startedAt: data.startedAt };
  } catch {
    return undefined;
  }
}

export function isLockLive(lock: BuildLock, now: number): boolean {
  if (now - lock.startedAt > LOCK_MAX_AGE_MS) return false;
  try {
    process.kill(lock.pid, 0); // signal 0: existence check only
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else — still a live build.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock for this process; false when a live build holds it. */
export function acquireBuildLock(commonDir: string, now: number): boolean {
  const path = buildLockPath(commonDir);
  mkdirSync(join(commonDir, 'airspace'), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      try {
        writeSync(fd, JSON.stringify({ pid: process.pid, startedAt: now } satisfies BuildLock));
      } finally {
        closeSync(fd);
      }
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const held = readBuildLock(commonDir);
    // An unreadable lock may be one being written this instant; one that stays unreadable for
    // seconds was left by a builder that died between creating and writing it.
    if (held === undefined ? !unreadableForLong(path, now) : isLockLive(held, now)) return false;
    try {
      renameSync(path, `${path}.stale.${process.pid}`);
      rmSync(`${path}.stale.${process.pid}`, { force: true });
    } catch {
      return false; // another process recovered it first
    }
  }
  return false;
}

function unreadableForLong(path: string, now: number): boolean {
  try {
    return now - statSync(path).mtimeMs > 10_000;
  } catch {
    return true; // gone already: take it
  }
}

/** Releases the lock if this process holds it. */
export function releaseBuildLock(commonDir: string): void {
  const held = readBuildLock(commonDir);
  if (held?.pid === process.pid) rmSync(buildLockPath(commonDir), { force: true });
}
