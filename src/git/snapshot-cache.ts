import { createHash } from 'node:crypto';
import { lstat, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { objectInfo } from './read-objects.js';
import type { IndexCopy } from './snapshot-worktree.js';
import { worktreeSidePaths, type WorktreeStatus } from './worktree-status.js';

/**
 * Peer worktrees' snapshots, reused between runs: `<common dir>/airspace/worktree-snapshots-v1.json`.
 * A snapshot is a function of HEAD, the index and the content of every file `add -A` would re-read.
 * The key pins all three (docs/decisions/hook-performance.md, "Snapshot cache"):
 * - HEAD (the commit id from `git worktree list`);
 * - the index: a hash of its bytes, the same bytes the snapshot's temp index is written from,
 *   and the index must not change (stat) while `git status` runs;
 * - `git status --porcelain -z` output, byte for byte: which files differ from the index and which
 *   untracked files exist (what `.gitignore` lets in);
 * - for each path whose worktree side differs (modified, deleted, untracked): lstat inode, size,
 *   mode, mtime and ctime in ns, taken AFTER status and BEFORE the file is read. The index mtime is
 *   not enough: unstaged edits and new untracked files never touch the index.
 * Racy files: a write in the same timestamp tick as the one we saw would leave the stat unchanged,
 * so no key is made (the snapshot is not cached) while any of those files or the index changed
 * less than RACY_MS before the run began. Cache misses are always safe; only a hit must be right.
 */

const VERSION = 1;
const RACY_MS = 2_000;
const FILE = 'worktree-snapshots-v1.json';

export interface CachedSnapshot {
  readonly key: string;
  /** The snapshot commit, or null when the worktree was clean (its HEAD is the target). */
  readonly commit: string | null;
  readonly uncommittedPaths: readonly string[];
}

export interface KeyInput {
  readonly toplevel: string;
  readonly head: string;
  readonly indexFile: string;
  readonly index: IndexCopy;
  readonly status: WorktreeStatus;
  /** Date.now() before the index and the status were read. */
  readonly startedAtMs: number;
}

/** The cache key of a worktree's state, or null when it cannot be trusted (racy, index moved). */
export async function snapshotKey(input: KeyInput): Promise<string | null> {
  const limitNs = BigInt(Math.floor(input.startedAtMs - RACY_MS)) * 1_000_000n;
  const hash = createHash('sha1').update(`airspace-snapshot ${VERSION}\0${input.head}\0`);
  hash.update(input.index.bytes ? createHash('sha1').update(input.index.bytes).digest('hex') : 'no-index').update('\0');
  hash.update(input.status.raw).update('\0');
  for (const path of worktreeSidePaths(input.status.entries)) {
    const info = await lstat(join(input.toplevel, path), { bigint: true }).catch(() => null);
    if (info && (info.mtimeNs >= limitNs || info.ctimeNs >= limitNs)) return null;
    hash.update(`${path}\0${info ? `${info.ino} ${info.size} ${info.mode} ${info.mtimeNs} ${info.ctimeNs}` : '-'}\0`);
  }
  const after = await stat(input.indexFile).catch(() => null);
  if ((after?.mtimeMs ?? 0) !== input.index.mtimeMs || (after?.size ?? 0) !== (input.index.bytes?.length ?? 0)) return null;
  if (input.index.mtimeMs >= input.startedAtMs - RACY_MS) return null;
  return hash.digest('hex');
}

/** Entries by worktree path; a missing or unreadable cache is an empty one. */
export async function readSnapshotCache(commonDir: string): Promise<Map<string, CachedSnapshot>> {
  try {
    const parsed = JSON.parse(await readFile(join(commonDir, 'airspace', FILE), 'utf8')) as { entries?: Record<string, CachedSnapshot> };
    const entries = new Map<string, CachedSnapshot>();
    for (const [path, entry] of Object.entries(parsed.entries ?? {})) {
      if (typeof entry?.key === 'string' && (entry.commit === null || typeof entry.commit === 'string') && Array.isArray(entry.uncommittedPaths))
        entries.set(path, entry);
    }
    return entries;
  } catch {
    return new Map();
  }
}

/**
 * Writes the entries of the worktrees that exist now (a removed worktree's entry goes). Written
 * to a temp file and renamed: a concurrent hook in another worktree reads the old or the new file,
 * never half of one; the last writer wins, which can only cost the other one a miss.
 */
export async function writeSnapshotCache(commonDir: string, entries: ReadonlyMap<string, CachedSnapshot>): Promise<void> {
  await writeFileAtomic(join(commonDir, 'airspace', FILE), JSON.stringify({ version: VERSION, entries: Object.fromEntries(entries) }));
}

/** Which of these object ids this repository no longer has (a `git gc --prune` removed them). */
export async function missingObjects(cwd: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const found = await objectInfo(cwd, ids);
  // An id that is not a well-formed object id cannot be asked: it is no object of this repository.
  return new Set(ids.filter((_, index) => found[index] === null));
}
