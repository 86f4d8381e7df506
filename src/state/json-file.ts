/**
 * Small JSON state files, written atomically (temp file + rename: a reader sees the old or the new
 * file, never half of one) and updated under a lock file, because two worktrees' hooks may write
 * the shared history or one inbox at the same time. Reads are bounded and forgiving: a missing,
 * oversized or corrupt file reads as empty state rather than breaking a hook.
 */
import { mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';

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
 * Read-modify-write under `<file>.lock`. The lock is best effort: a stale lock (a killed hook) is
 * broken after 10 s, and after 2 s of waiting the update proceeds anyway — a lost update of
 * advisory state is better than a hook that hangs.
 */
export async function updateJsonFile<T>(file: string, maxBytes: number, update: (current: unknown) => T): Promise<T> {
  await mkdir(dirname(file), { recursive: true });
  const release = await acquireLock(`${file}.lock`);
  try {
    const next = update(await readJsonFile(file, maxBytes));
    await writeJsonAtomic(file, next);
    return next;
  } finally {
    await release();
  }
}

async function acquireLock(lock: string): Promise<() => Promise<void>> {
  const started = Date.now();
  for (;;) {
    try {
      const handle = await open(lock, 'wx');
      await handle.close();
      return () => unlink(lock).catch(() => undefined);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return async () => undefined;
    }
    const age = await stat(lock).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > LOCK_STALE_MS) {
      await unlink(lock).catch(() => undefined);
      continue;
    }
    if (Date.now() - started > LOCK_WAIT_MS) return async () => undefined;
    await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 20));
  }
}
