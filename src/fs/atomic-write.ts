import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The one way this package replaces a file: written to a temp file beside it, then renamed over
 * it. A reader (another worktree's hook, git running a hook, Claude Code reading its settings)
 * sees the old file or the new one, never half of one, and a crash leaves the old one. Two
 * writers at once each rename a complete file: the last one wins. The parent directory is
 * created; the temp file's name is unique per write (pid and random bytes), so two writes in
 * one process never share one, and it is removed when the write fails.
 *
 * Under every layer (src/fs/ imports only node built-ins): git's caches, the graph's, the state
 * files and the installer's files all call it.
 */

export interface AtomicWriteOptions {
  /** The file's exact mode, whatever the umask (a hook must be executable). */
  readonly mode?: number;
}

function tempPath(path: string): string {
  return `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = tempPath(path);
  try {
    await writeFile(temp, data, options.mode === undefined ? {} : { mode: options.mode });
    if (options.mode !== undefined) await chmod(temp, options.mode);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** The same, for the synchronous writers (the graph's cache and build status, the hook shims). */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = tempPath(path);
  try {
    writeFileSync(temp, data, options.mode === undefined ? {} : { mode: options.mode });
    if (options.mode !== undefined) chmodSync(temp, options.mode);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
