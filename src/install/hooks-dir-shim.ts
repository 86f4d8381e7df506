import { mkdirSync, readFileSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../fs/atomic-write.js';
import { readFingerprint } from './fingerprint.js';
import { BLOCK_START } from './husky-block.js';
import { shimText } from './package-files.js';
import type { HookAction, HookName, UninstallAction } from './types.js';

/**
 * Our shim in a hooks directory. A hook already there is never overwritten: it is renamed to
 * `<hook>.airspace-original` (same bytes, same mode) and the shim runs it first, so its exit code
 * and, for pre-push, its stdin still count. Uninstall renames it back.
 */
export const ORIGINAL_SUFFIX = '.airspace-original';

export function shimPaths(hooksDir: string, hook: HookName): { path: string; original: string } {
  const path = join(hooksDir, hook);
  return { path, original: path + ORIGINAL_SUFFIX };
}

export function installShim(hooksDir: string, hook: HookName, force: boolean): HookAction {
  const { path, original } = shimPaths(hooksDir, hook);
  const desired = shimText(hook);
  mkdirSync(hooksDir, { recursive: true });
  const current = readIfFile(path);
  if (current === null && exists(path)) return { kind: 'not-a-file', hook, path };
  if (current === null) {
    writeExecutable(path, desired);
    return exists(original) ? { kind: 'chained', hook, path, original } : { kind: 'written', hook, path };
  }
  const fingerprint = readFingerprint(current);
  if (fingerprint !== null) {
    if (current === desired) return { kind: 'already-installed', hook, path };
    if (!fingerprint.intact) {
      if (!force) return { kind: 'modified-kept', hook, path };
      writeExecutable(path, desired);
      return { kind: 'modified-replaced', hook, path };
    }
    writeExecutable(path, desired);
    return { kind: 'updated', hook, path, fromVersion: fingerprint.version };
  }
  if (exists(original)) return { kind: 'conflict', hook, path, original };
  renameSync(path, original);
  writeExecutable(path, desired);
  return { kind: 'chained', hook, path, original };
}

export function removeShim(hooksDir: string, hook: HookName): UninstallAction | null {
  const { path, original } = shimPaths(hooksDir, hook);
  const current = readIfFile(path);
  const fingerprint = current === null ? null : readFingerprint(current);
  if (fingerprint !== null && !fingerprint.intact) return { kind: 'modified-kept', hook, path };
  if (fingerprint !== null) {
    unlinkSync(path);
    if (!exists(original)) return { kind: 'shim-removed', hook, path, restored: null };
    renameSync(original, path);
    return { kind: 'shim-removed', hook, path, restored: path };
  }
  if (!exists(original)) return null;
  // Our shim is gone but the hook it replaced is still parked: put it back if its place is free.
  if (current !== null) return { kind: 'orphan-original', hook, path: original };
  renameSync(original, path);
  return { kind: 'shim-removed', hook, path, restored: path };
}

export interface ShimState {
  readonly path: string;
  readonly present: boolean;
  readonly ours: boolean;
  readonly intact: boolean;
  readonly version: string | null;
  readonly executable: boolean;
  readonly originalParked: boolean;
}

export function shimState(hooksDir: string, hook: HookName): ShimState {
  const { path, original } = shimPaths(hooksDir, hook);
  const current = readIfFile(path);
  // With husky ≤ 8, core.hooksPath is .husky itself: its scripts carry our BLOCK's fingerprint,
  // which hashes the block, not the file. Read as a shim, every untouched script looked "edited".
  const fingerprint = current === null || current.includes(BLOCK_START) ? null : readFingerprint(current);
  const mode = statSync(path, { throwIfNoEntry: false })?.mode ?? 0;
  return {
    path,
    present: current !== null,
    ours: fingerprint !== null,
    intact: fingerprint?.intact ?? false,
    version: fingerprint?.version ?? null,
    executable: (mode & 0o111) !== 0,
    originalParked: exists(original),
  };
}

/** Write-then-rename: git never sees a half-written hook, and the mode is exact whatever the umask. */
function writeExecutable(path: string, text: string): void {
  writeFileAtomicSync(path, text, { mode: 0o755 });
}

function readIfFile(path: string): string | null {
  try {
    return statSync(path).isFile() ? readFileSync(path, 'utf8') : null;
  } catch {
    return null;
  }
}

function exists(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false }) !== undefined;
}
