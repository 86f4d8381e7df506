import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, fstatSync, openSync, readSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '../fs/temp-dir.js';
import { runGit } from './exec-git.js';

/**
 * What a worktree's index says, as a digest. Two indexes with the same digest give the same status
 * and the same snapshot (src/git/snapshot-worktree.ts).
 *
 * First from the index file itself: git ends it with a hash of everything before it (SHA-1, 20
 * bytes; SHA-256, 32), so the same size and the same last 32 bytes mean the same bytes — every
 * entry's path, mode, blob, stage, flags (assume-unchanged, skip-worktree) and stat data, and the
 * extensions. A split index names its shared index by that file's own hash, so the same bytes name
 * the same shared index too. Reading 44 bytes costs no process, where `ls-files` over typeorm's 3,800
 * entries cost the resident ~14 ms a question (docs/decisions/resident.md, "The warm pre-commit").
 * It is a stronger proof than the listing below (stat data and extensions count too): at worst an
 * index rewritten with new stat data is sensed live once more.
 *
 * When that proof is missing — no index file, not an index git wrote, or a trailer of zeros
 * (`index.skipHash`, git 2.40+, which skips the hash) — from `ls-files -s -v`: path, mode, blob and
 * stage of every entry and its assume-unchanged or skip-worktree tag, what `git status` reads from
 * the index besides the stat data it only uses to skip re-hashing files; the one difference it
 * cannot see, an intent-to-add entry against a staged empty file, the snapshot takes alike (both are
 * the file's content in the worktree). The two kinds of digest never equal each other.
 *
 * Read only: neither takes a lock or writes, so either may read git's own `index.lock` (a hook's
 * GIT_INDEX_FILE while `git commit -a` holds it).
 */
export async function indexFingerprint(toplevel: string, indexFile: string): Promise<string> {
  return indexChecksum(indexFile) ?? `listing:${await listingDigest(toplevel, indexFile)}`;
}

/** "DIRC", version 2–4, entry count; then entries, extensions and the hash. */
const HEADER_BYTES = 12;
const TAIL_BYTES = 32;
const SHA1_BYTES = 20;

/** `size:last 32 bytes` of an index git hashed, or null when the file gives no such proof. */
export function indexChecksum(indexFile: string): string | null {
  let fd: number;
  try {
    fd = openSync(indexFile, 'r');
  } catch {
    return null;
  }
  try {
    const { size } = fstatSync(fd);
    if (size < HEADER_BYTES + TAIL_BYTES) return null;
    const header = Buffer.alloc(HEADER_BYTES);
    const tail = Buffer.alloc(TAIL_BYTES);
    if (readSync(fd, header, 0, HEADER_BYTES, 0) !== HEADER_BYTES || readSync(fd, tail, 0, TAIL_BYTES, size - TAIL_BYTES) !== TAIL_BYTES) return null;
    const version = header.readUInt32BE(4);
    if (header.toString('latin1', 0, 4) !== 'DIRC' || version < 2 || version > 4) return null;
    // index.skipHash writes zeros where the hash goes (the last 20 bytes, or 32 with SHA-256).
    if (tail.subarray(TAIL_BYTES - SHA1_BYTES).every((byte) => byte === 0)) return null;
    return `index:${size}:${tail.toString('hex')}`;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

async function listingDigest(toplevel: string, indexFile: string): Promise<string> {
  const { stdout } = await runGit(['ls-files', '-s', '-v', '-z'], { cwd: toplevel, env: { GIT_INDEX_FILE: indexFile } });
  return createHash('sha256').update(stdout).digest('hex');
}

/**
 * The `indexChecksum` of this index once its cache-tree is filled: what `git commit` writes before it
 * runs pre-commit when `git add` left the cache-tree incomplete (the usual edit, add, commit). Read
 * from a copy on which `git write-tree` ran (same entries; the user's index is never written); null
 * when it cannot be had (unmerged entries, no index) or when it is the index's own checksum.
 */
export async function indexChecksumOnceTreed(toplevel: string, indexFile: string, timeoutMs = 10_000): Promise<string | null> {
  const now = indexChecksum(indexFile);
  if (now === null) return null;
  const dir = await makeTempDir('airspace-treed-index-');
  try {
    const copy = join(dir, 'index');
    copyFileSync(indexFile, copy);
    const written = await runGit(['write-tree'], { cwd: toplevel, env: { GIT_INDEX_FILE: copy }, timeoutMs, okCodes: [0, 128] });
    if (written.code !== 0) return null;
    const treed = indexChecksum(copy);
    return treed !== null && treed !== now ? treed : null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
