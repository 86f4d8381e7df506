import { join } from 'node:path';
import { isLockLive as isHolderLive, readLock, tryLock, unlock, type LockHolder } from '../fs/lock-file.js';

/**
 * One background graph build at a time across all worktrees: a lock file under the common git
 * dir, in the one lock design (src/fs/lock-file.ts: O_EXCL, the holder's pid and start time, a
 * dead or too-old holder's lock taken over at once).
 */

export type BuildLock = LockHolder;

/** A build holding the lock longer than this is presumed dead (pid reuse, a hung process). */
export const LOCK_MAX_AGE_MS = 2 * 60 * 60 * 1000;

/** The token this process took the build lock with, per lock path. */
const held = new Map<string, string>();

export function buildLockPath(commonDir: string): string {
  return join(commonDir, 'airspace', 'graph-build.lock');
}

/** The lock as written, or undefined when there is none or it is unreadable (being written). */
export function readBuildLock(commonDir: string): BuildLock | undefined {
  return readLock(buildLockPath(commonDir));
}

export function isLockLive(lock: BuildLock, now: number): boolean {
  return isHolderLive(lock, now, LOCK_MAX_AGE_MS);
}

/** Takes the lock for this process; false when a live build holds it. */
export function acquireBuildLock(commonDir: string, now: number): boolean {
  const path = buildLockPath(commonDir);
  const token = tryLock(path, now, LOCK_MAX_AGE_MS);
  if (token === undefined) return false;
  held.set(path, token);
  return true;
}

/** Releases the lock if this process holds it. */
export function releaseBuildLock(commonDir: string): void {
  const path = buildLockPath(commonDir);
  const token = held.get(path);
  if (token === undefined) return;
  held.delete(path);
  unlock(path, token);
}
