import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The one lock-file design: the graph's one-build-at-a-time lock (src/graph/graph-build-lock.ts)
 * and the state files' read-modify-write lock (src/state/json-file.ts) both use it.
 *
 * - Taken by creating the file with O_EXCL, so of two racers exactly one wins, and written in the
 *   same synchronous step with the holder's pid, start time and a token of its own.
 * - A lock is stale when its holder is gone (its pid no longer exists: a killed hook, a reboot),
 *   when it is older than the user's `maxAgeMs` (a hung holder, a reused pid), or when it has been
 *   unreadable for a second (its holder died between creating and writing it, or an older version
 *   left an empty one). A stale lock is taken over at once: a dead process's lock never makes
 *   anyone wait (issue 24, item 8: it cost a pre-commit 2.8-4.9 s of a 2 s budget).
 * - Takeover renames the lock to a private name first (rename is atomic, so of two recoverers
 *   only one moves it), then checks that what it moved is the holder it judged stale: a recoverer
 *   that lost the race to a fresh holder puts that lock back instead of deleting it.
 * - Only the token that took a lock releases it: two holders in one process (two async updates)
 *   never release each other's.
 */

export interface LockHolder {
  readonly pid: number;
  /** Epoch ms the lock was taken. */
  readonly startedAt: number;
  readonly token?: string;
}

/** Unreadable for this long, a lock's holder died before writing it (it writes in the same step). */
const UNREADABLE_STALE_MS = 1000;

/** The holder as written, or undefined when there is no lock or it is unreadable. */
export function readLock(path: string): LockHolder | undefined {
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    if (typeof data.pid !== 'number' || typeof data.startedAt !== 'number') return undefined;
    return { pid: data.pid, startedAt: data.startedAt, ...(typeof data.token === 'string' ? { token: data.token } : {}) };
  } catch {
    return undefined;
  }
}

/** The holder's process exists and the lock is younger than `maxAgeMs`. */
export function isLockLive(holder: LockHolder, now: number, maxAgeMs: number): boolean {
  return now - holder.startedAt <= maxAgeMs && isProcessAlive(holder.pid);
}

/** `pid` runs: it exists (someone else's counts: EPERM) and is not a zombie waiting to be reaped. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: existence check only
    return !isZombie(pid);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A killed holder whose parent has not reaped it yet still answers signal 0, for as long as that
 * parent is busy (a `kill -9`'d resident process until init collects it, a test worker in a
 * synchronous spawn). It holds nothing any more. Linux only (/proc); elsewhere false.
 */
function isZombie(pid: number): boolean {
  try {
    return /^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * Takes the lock for this process, taking over a stale one: the token to release it with, or
 * undefined when a live holder has it. Throws what the file system throws other than EEXIST.
 */
export function tryLock(path: string, now: number, maxAgeMs: number): string | undefined {
  mkdirSync(dirname(path), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    const token = randomBytes(8).toString('hex');
    try {
      const fd = openSync(path, 'wx');
      try {
        writeSync(fd, JSON.stringify({ pid: process.pid, startedAt: now, token } satisfies LockHolder));
      } finally {
        closeSync(fd);
      }
      return token;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const held = readLock(path);
    if (held === undefined ? !unreadableForLong(path, now) : isLockLive(held, now, maxAgeMs)) return undefined;
    if (!takeOver(path, held)) return undefined;
  }
  return undefined;
}

/** Removes the lock if `token` took it. */
export function unlock(path: string, token: string): void {
  if (readLock(path)?.token === token) rmSync(path, { force: true });
}

/**
 * Runs `work` holding the lock, waiting at most `waitMs` for a live holder; after that (or when
 * the lock cannot be created at all) `work` runs without it: for advisory state a lost update is
 * better than a hook that hangs.
 */
export async function withLock<T>(path: string, policy: { readonly waitMs: number; readonly maxAgeMs: number }, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  let token: string | undefined;
  for (;;) {
    try {
      token = tryLock(path, Date.now(), policy.maxAgeMs);
    } catch {
      break;
    }
    if (token !== undefined || Date.now() - started > policy.waitMs) break;
    await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 20));
  }
  try {
    return await work();
  } finally {
    if (token !== undefined) unlock(path, token);
  }
}

function unreadableForLong(path: string, now: number): boolean {
  try {
    return now - statSync(path).mtimeMs > UNREADABLE_STALE_MS;
  } catch {
    return true; // gone already: take it
  }
}

/** Moves the stale lock away; false when another process recovered it first. */
function takeOver(path: string, stale: LockHolder | undefined): boolean {
  const moved = `${path}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    renameSync(path, moved);
  } catch {
    return false;
  }
  const got = readLock(moved);
  if (got?.token !== stale?.token || got?.pid !== stale?.pid || got?.startedAt !== stale?.startedAt) {
    // A fresh holder took the lock between our look and our rename: give it back (link fails if
    // yet another holder has it by now, which is then the one that counts).
    try {
      linkSync(moved, path);
    } catch {
      // keep whoever holds it now
    }
    rmSync(moved, { force: true });
    return false;
  }
  rmSync(moved, { force: true });
  return true;
}
