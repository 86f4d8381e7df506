import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Older than this, a temporary folder of ours is a leftover of a killed run: nothing still uses it. */
const STALE_MS = 60 * 60 * 1000;
const swept = new Set<string>();

/**
 * A fresh folder under the system temp dir for one run's temporary index. A run killed with
 * SIGKILL (a budget cut from outside, an OOM kill) never reaches its `finally`, so its folder
 * stays: the first folder a process makes also sweeps, in the background, this user's folders of
 * the same prefix older than an hour (147 kills left 22 of them behind).
 */
export async function makeTempDir(prefix: string): Promise<string> {
  if (!swept.has(prefix)) {
    swept.add(prefix);
    void sweepStale(prefix).catch(() => undefined);
  }
  return mkdtemp(join(tmpdir(), prefix));
}

export async function sweepStale(prefix: string, now = Date.now()): Promise<number> {
  const root = tmpdir();
  const names = (await readdir(root)).filter((name) => name.startsWith(prefix));
  const uid = process.getuid?.();
  let removed = 0;
  for (const name of names) {
    const path = join(root, name);
    const info = await stat(path).catch(() => null);
    if (!info?.isDirectory() || now - info.mtimeMs < STALE_MS || (uid !== undefined && info.uid !== uid)) continue;
    await rm(path, { recursive: true, force: true }).then(
      () => removed++,
      () => undefined,
    );
  }
  return removed;
}
