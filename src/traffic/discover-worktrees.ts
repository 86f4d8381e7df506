import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { AirspaceError, isAirspaceError } from '../errors.js';
import { changedPathsBatch } from '../git/diff-working-set.js';
import { gitZ } from '../git/exec-git.js';
import { missingObjects, readSnapshotCache, snapshotKey, writeSnapshotCache, type CachedSnapshot } from '../git/snapshot-cache.js';
import { readIndex, snapshotError, snapshotFromStatus, type IndexCopy, type SnapshotTarget } from '../git/snapshot-worktree.js';
import { readWorktreeGitDir } from '../git/worktree-git-dir.js';
import { readWorktreeStatus, type WorktreeStatus } from '../git/worktree-status.js';
import { hookCoverage, type HookProtection } from '../install/hook-coverage.js';
import { gitMessages } from '../messages/command-line.js';
import { mapLimit } from './limit-concurrency.js';
import { worktreeAgentId } from './line-of-work.js';
import { byCodeUnits } from '../engine/code-unit-order.js';

/** One record of `git worktree list --porcelain -z`. */
export interface WorktreeEntry {
  readonly path: string;
  readonly head: string | null;
  readonly branch: string | null;
  readonly bare: boolean;
  readonly prunable: boolean;
}

/** Attributes end in NUL, records in an extra NUL; `-z` keeps odd paths intact (git ≥ 2.36). */
export function parseWorktreeList(fields: readonly string[]): WorktreeEntry[] {
  const entries: WorktreeEntry[] = [];
  let current: { path: string; head: string | null; branch: string | null; bare: boolean; prunable: boolean } | undefined;
  for (const field of fields) {
    if (field.startsWith('worktree ')) {
      current = { path: field.slice('worktree '.length), head: null, branch: null, bare: false, prunable: false };
      entries.push(current);
    } else if (current === undefined || field === '') {
      // a field before the first `worktree` line, or the blank line between entries: nothing to record
    } else if (field.startsWith('HEAD ')) {
      current.head = field.slice(5);
    } else if (field.startsWith('branch ')) {
      current.branch = field.slice('branch refs/heads/'.length);
    } else if (field === 'bare') {
      current.bare = true;
    } else if (field === 'prunable' || field.startsWith('prunable ')) {
      current.prunable = true;
    }
  }
  return entries;
}

/** A peer worktree read for traffic: its HEAD plus a snapshot of its uncommitted work. */
export interface DiscoveredWorktree {
  readonly id: string;
  readonly path: string;
  readonly gitDir: string;
  readonly branch: string | null;
  readonly tip: string;
  readonly snapshot?: string;
  readonly uncommittedPaths: readonly string[];
  /** Whether git runs our hooks in that worktree (read with `commonDir`; absent without it). */
  readonly protection?: HookProtection;
}

export interface WorktreeDiscovery {
  readonly worktrees: DiscoveredWorktree[];
  readonly unknown: { id: string; reason: string }[];
  readonly notes: string[];
  /** Peers whose snapshot came from the cache / had to be made (for tests and the bench). */
  readonly snapshots: { readonly reused: number; readonly made: number };
}

/** A peer after its status: what the snapshot needs, and the cache entry that may spare it. */
interface PeerRead {
  readonly id: string;
  readonly entry: WorktreeEntry;
  readonly target: SnapshotTarget & { readonly head: string };
  readonly index: IndexCopy;
  readonly status: WorktreeStatus;
  readonly key: string | null;
  readonly cached: CachedSnapshot | undefined;
  readonly protection: HookProtection | undefined;
}

const ZERO_ID = /^0+$/;

/**
 * Every other worktree of the repository, with its uncommitted work frozen into a snapshot commit
 * (a temp index, never theirs). The current worktree, a bare main repository and worktrees whose
 * folder is gone (prunable) are skipped with a note; one that cannot be read becomes `unknown`.
 * A worktree with no commits yet has nothing to compare against and becomes `unknown` too.
 *
 * Git processes per peer: its `git status` (the floor) and nothing else when its snapshot is in
 * the cache under `commonDir` (see snapshot-cache.ts for why the key is sound); otherwise
 * update-index + write-tree + commit-tree. HEAD and branch come from `worktree list`, the git dir
 * from the `.git` file; the uncommitted paths of all new snapshots come from ONE diff-tree.
 * `clock` is when a peer's read starts (the racy-file limit of the cache key); tests move it forward
 * instead of sleeping past the limit.
 */
export async function discoverWorktrees(cwd: string, currentTopLevel: string, commonDir?: string, clock: () => number = Date.now): Promise<WorktreeDiscovery> {
  const [fields, cache] = await Promise.all([
    gitZ(['worktree', 'list', '--porcelain', '-z'], { cwd }),
    commonDir ? readSnapshotCache(commonDir) : Promise.resolve(new Map<string, CachedSnapshot>()),
  ]);
  const entries = parseWorktreeList(fields);
  const current = await realpath(currentTopLevel).catch(() => currentTopLevel);
  const notes: string[] = [];
  const unknown: { id: string; reason: string }[] = [];
  const failed = (id: string, entry: WorktreeEntry, error: unknown): void => {
    if (!isAirspaceError(error) && !(error instanceof Error && 'code' in error)) throw error;
    unknown.push({ id, reason: gitMessages.worktreeFailed(entry.path, (error as Error).message) });
  };
  // A handful at a time: each status is a full stat walk, and 20 agent worktrees are common.
  const reads = await mapLimit(entries, 4, async (entry): Promise<PeerRead | null> => {
    if (entry.bare) {
      notes.push(gitMessages.worktreeBare(entry.path));
      return null;
    }
    if (entry.prunable) {
      notes.push(gitMessages.worktreeMissing(entry.path));
      return null;
    }
    if ((await realpath(entry.path).catch(() => entry.path)) === current) return null;
    const id = entry.branch ?? worktreeAgentId(entry.path);
    if (entry.head === null || ZERO_ID.test(entry.head)) {
      unknown.push({ id, reason: gitMessages.worktreeUnborn(entry.path) });
      return null;
    }
    try {
      // Coverage beside the status, not after it: one `git config` more per peer, in parallel.
      const [peer, protection] = await Promise.all([
        readPeer(id, entry, entry.head, cache.get(entry.path), clock),
        commonDir ? hookCoverage(entry.path, commonDir).catch(() => undefined) : undefined,
      ]);
      return { ...peer, protection };
    } catch (error) {
      failed(id, entry, error);
      return null;
    }
  });
  const peers = reads.filter((read): read is PeerRead => read !== null);
  // A cached commit is unreferenced: `git gc --prune` may have removed it since. One check for all.
  const gone = await missingObjects(
    cwd,
    peers.flatMap((peer) => (peer.key !== null && peer.cached?.key === peer.key && peer.cached.commit ? [peer.cached.commit] : [])),
  );
  const reuse = (peer: PeerRead): boolean => peer.key !== null && peer.cached?.key === peer.key && !(peer.cached.commit && gone.has(peer.cached.commit));

  const made = new Map<PeerRead, string | null>();
  await mapLimit(
    peers.filter((peer) => !reuse(peer)),
    4,
    async (peer) => {
      try {
        const snapshot = await snapshotFromStatus(peer.target, peer.index, peer.status);
        made.set(peer, snapshot.dirty ? snapshot.commit : null);
      } catch (error) {
        failed(peer.id, peer.entry, snapshotError(error));
      }
    },
  );
  const dirty = [...made].flatMap(([peer, commit]) => (commit ? [{ from: peer.target.head, to: commit }] : []));
  const paths = await changedPathsBatch(cwd, dirty);

  const worktrees: DiscoveredWorktree[] = [];
  const next = new Map<string, CachedSnapshot>();
  for (const peer of peers) {
    let result: CachedSnapshot | undefined;
    if (reuse(peer)) result = peer.cached!;
    else if (made.has(peer)) {
      const commit = made.get(peer)!;
      const changed = commit ? (paths.get(commit) ?? []) : [];
      // Status listed something but the content equals HEAD (an edit undone): clean.
      result = { key: peer.key ?? '', commit: changed.length > 0 ? commit : null, uncommittedPaths: changed };
    }
    if (!result) continue;
    if (peer.key !== null) next.set(peer.entry.path, { ...result, key: peer.key });
    const base = {
      id: peer.id,
      path: peer.entry.path,
      gitDir: peer.target.gitDir,
      branch: peer.entry.branch,
      tip: peer.target.head,
      uncommittedPaths: result.uncommittedPaths,
      ...(peer.protection ? { protection: peer.protection } : {}),
    };
    worktrees.push(result.commit ? { ...base, snapshot: result.commit } : base);
  }
  const changedCache = next.size !== cache.size || [...next].some(([path, entry]) => cache.get(path)?.key !== entry.key);
  // The cache only saves time: failing to write it must not fail the scan.
  if (commonDir && changedCache) await writeSnapshotCache(commonDir, next).catch(() => undefined);
  worktrees.sort((x, y) => byCodeUnits(x.id, y.id));
  return { worktrees, unknown, notes, snapshots: { reused: peers.filter(reuse).length, made: made.size } };
}

/** Index, status and cache key of one peer (index first: the key hashes the bytes the snapshot uses). */
async function readPeer(
  id: string,
  entry: WorktreeEntry,
  head: string,
  cached: CachedSnapshot | undefined,
  clock: () => number,
): Promise<Omit<PeerRead, 'protection'>> {
  const gitDir = await readWorktreeGitDir(entry.path);
  if (gitDir === null) throw new AirspaceError('git', 'worktree-no-git-dir', gitMessages.worktreeNoGitDir);
  const target = { toplevel: entry.path, gitDir, indexFile: join(gitDir, 'index'), head };
  const startedAtMs = clock();
  const index = await readIndex(target.indexFile);
  const status = await readWorktreeStatus(target);
  const key = await snapshotKey({ toplevel: entry.path, head, indexFile: target.indexFile, index, status, startedAtMs });
  return { id, entry, target, index, status, key, cached };
}
