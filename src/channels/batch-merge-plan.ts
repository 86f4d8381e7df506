import type { RawChange } from '../git/raw-changes.js';

/**
 * When a pair's textual merge is the merge of its shared files alone, and so can join a batch
 * (src/channels/batched-merges.ts). With ONE merge base B (proven-merge-base.ts), `git merge-tree`
 * takes each path one side changed from that side, and content-merges each path both changed —
 * unless one of git's path-level steps applies, which a flat batch of files would not reproduce:
 * - rename and directory-rename detection: it pairs a side's deletions with its additions, so a
 *   side with both is out (with none of either kind on a side, it has no rename);
 * - file/directory conflicts: a changed path of one side that is a directory of the other's;
 * - anything but a regular file (symlinks, gitlinks, type changes), and on a shared path anything
 *   but modify/modify (add/add, modify/delete): those are conflicts or clean by rules of their own;
 * - merge drivers and marker sizes from attributes, `merge.renormalize` and `merge.default` (checked by the caller
 *   on the real paths and the batch's names: pathsWithMergeAttributes, mergeConfigByPath).
 * What is left is exact: a content merge of three blobs with their modes depends on nothing else,
 * so under any other name it conflicts exactly when it does under its own.
 */
export interface SharedFile {
  readonly path: string;
  readonly base: { readonly mode: string; readonly blob: string };
  readonly ours: { readonly mode: string; readonly blob: string };
  readonly theirs: { readonly mode: string; readonly blob: string };
}

const REGULAR = /^100(644|755)$/;
const NONE = /^0+$/;
const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** The pair's shared files when its merge is theirs alone; null when git could do more with it. */
export function batchableShared(ours: readonly RawChange[], theirs: readonly RawChange[]): SharedFile[] | null {
  if (!plainSide(ours) || !plainSide(theirs)) return null;
  if (directoryClash(ours, theirs) || directoryClash(theirs, ours)) return null;
  const theirsByPath = new Map(theirs.map((change) => [change.path, change]));
  const shared: SharedFile[] = [];
  for (const mine of ours) {
    const other = theirsByPath.get(mine.path);
    if (!other) continue;
    if (mine.status !== 'M' || other.status !== 'M' || mine.baseBlob !== other.baseBlob || mine.baseMode !== other.baseMode) return null;
    shared.push({
      path: mine.path,
      base: { mode: mine.baseMode, blob: mine.baseBlob },
      ours: { mode: mine.mode, blob: mine.blob },
      theirs: { mode: other.mode, blob: other.blob },
    });
  }
  return shared;
}

/** Only additions, modifications and deletions of regular files, and not both additions and deletions. */
function plainSide(changes: readonly RawChange[]): boolean {
  let added = false;
  let deleted = false;
  for (const change of changes) {
    if (change.status === 'A') {
      added = true;
      if (!NONE.test(change.baseMode) || !REGULAR.test(change.mode) || !OID.test(change.blob)) return false;
    } else if (change.status === 'D') {
      deleted = true;
      if (!REGULAR.test(change.baseMode) || !NONE.test(change.mode) || !OID.test(change.baseBlob)) return false;
    } else if (change.status === 'M') {
      if (!REGULAR.test(change.baseMode) || !REGULAR.test(change.mode) || !OID.test(change.blob) || !OID.test(change.baseBlob)) return false;
    } else return false;
  }
  return !(added && deleted);
}

/** Some changed path of `x` is a directory holding a changed path of `y`. */
function directoryClash(x: readonly RawChange[], y: readonly RawChange[]): boolean {
  const paths = new Set(x.map((change) => change.path));
  for (const change of y) {
    for (let at = change.path.indexOf('/'); at >= 0; at = change.path.indexOf('/', at + 1)) {
      if (paths.has(change.path.slice(0, at))) return true;
    }
  }
  return false;
}

/** One entry of the batch: a shared file of one pair under its flat name. */
export interface PlannedEntry {
  readonly name: string;
  readonly pair: number;
  readonly file: SharedFile;
}

/**
 * The batch's entries in chunks of at most `maxEntries` (a pair's files never split), each named
 * `<pair>.<file>` — flat, so the synthetic trees have no directories.
 */
export function planEntries(shared: ReadonlyMap<number, readonly SharedFile[]>, maxEntries: number): PlannedEntry[][] {
  const chunks: PlannedEntry[][] = [];
  let chunk: PlannedEntry[] = [];
  for (const [pair, files] of shared) {
    if (files.length === 0) continue;
    if (chunk.length > 0 && chunk.length + files.length > maxEntries) {
      chunks.push(chunk);
      chunk = [];
    }
    for (const [i, file] of files.entries()) chunk.push({ name: entryName(pair, i), pair, file });
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** The flat name of a pair's i-th shared file in the batch's trees. */
export const entryName = (pair: number, i: number): string => `${pair}.${i}`;

/** Each pair's conflicted paths from the batch's conflicted names, in git's order (bytewise, as merge-tree sorts them). */
export function conflictsByPair(chunks: readonly (readonly PlannedEntry[])[], conflicted: readonly ReadonlySet<string>[]): Map<number, string[]> {
  const byPair = new Map<number, string[]>();
  chunks.forEach((chunk, c) => {
    for (const entry of chunk) {
      if (!conflicted[c]!.has(entry.name)) continue;
      byPair.set(entry.pair, [...(byPair.get(entry.pair) ?? []), entry.file.path]);
    }
  });
  for (const paths of byPair.values()) paths.sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
  return byPair;
}
