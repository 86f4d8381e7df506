/**
 * Small JSON state files, written atomically (temp file + rename: a reader sees the old or the new
 * file, never half of one) and updated under a lock file, because two worktrees' hooks may write
 * the shared history or one inbox at the same time. Reads are bounded and forgiving: a missing,
 * oversized or corrupt file reads as empty state rather than breaking a hook.
 */
import { readFile, stat } from 'node:fs/promises';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { withLock } from '../fs/lock-file.js';

const LOCK_WAIT_MS = 2000;
const LOCK_STALE_MS = 10_000;

/** The parsed file, or null when it is missing, larger than `maxBytes` or not JSON. */
export async function readJsonFile(file: string, maxBytes: number): Promise<unknown> {
  try {
    const info = await stat(file);
    if (!info.isFile() || info.size > maxBytes) return null;
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch {
    return null;
  }
}

export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(value)}\n`, { mode: 0o644 });
}

/**
 * Read-modify-write under `<file>.lock` (src/fs/lock-file.ts). The lock is best effort: a lock
 * whose holder is gone (a killed hook) is taken over at once, a holder alive for 10 s is presumed
 * hung, and after 2 s of waiting for a live one the update proceeds anyway — a lost update of
 * advisory state is better than a hook that hangs.
 */
export async function updateJsonFile<T>(file: string, maxBytes: number, update: (current: unknown) => T): Promise<T> {
  return withLock(`${file}.lock`, { waitMs: LOCK_WAIT_MS, maxAgeMs: LOCK_STALE_MS }, async () => {
    const next = update(await readJsonFile(file, maxBytes));
    await writeJsonAtomic(file, next);
    return next;
  });
}
