import { realpath } from 'node:fs/promises';
import { isAirspaceError } from '../errors.js';
import { gitZ } from '../git/exec-git.js';
import { resolveRepo } from '../git/resolve-repo.js';
import { snapshotWorktree } from '../git/snapshot-worktree.js';
import { changedPaths } from '../git/diff-working-set.js';
import { gitMessages } from '../messages/git.js';
import { mapLimit } from './limit-concurrency.js';
import { worktreeAgentId } from './line-of-work.js';

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
      continue;
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
  readonly branch: string | null;
  readonly tip: string;
  readonly snapshot?: string;
  readonly uncommittedPaths: readonly string[];
}

export interface WorktreeDiscovery {
  readonly worktrees: DiscoveredWorktree[];
  readonly unknown: { id: string; reason: string }[];
  readonly notes: string[];
}

/**
 * Every other worktree of the repository, with its uncommitted work frozen into a snapshot commit
 * (a temp index, never theirs). The current worktree, a bare main repository and worktrees whose
 * folder is gone (prunable) are skipped with a note; one that cannot be read becomes `unknown`.
 * A worktree with no commits yet has nothing to compare against and becomes `unknown` too.
 */
export async function discoverWorktrees(cwd: string, currentTopLevel: string): Promise<WorktreeDiscovery> {
  const entries = parseWorktreeList(await gitZ(['worktree', 'list', '--porcelain', '-z'], { cwd }));
  const current = await realpath(currentTopLevel).catch(() => currentTopLevel);
  const result: WorktreeDiscovery = { worktrees: [], unknown: [], notes: [] };
  // A handful at a time: each snapshot is 3–4 git processes, and 20 agent worktrees are common.
  await mapLimit(entries, 4, async (entry) => {
    if (entry.bare) return void result.notes.push(gitMessages.worktreeBare(entry.path));
    if (entry.prunable) return void result.notes.push(gitMessages.worktreeMissing(entry.path));
    if ((await realpath(entry.path).catch(() => entry.path)) === current) return;
    const id = entry.branch ?? worktreeAgentId(entry.path);
    try {
      const read = await readWorktree(id, entry);
      if (typeof read === 'string') result.unknown.push({ id, reason: read });
      else result.worktrees.push(read);
    } catch (error) {
      if (!isAirspaceError(error)) throw error;
      result.unknown.push({ id, reason: gitMessages.worktreeFailed(entry.path, error.message) });
    }
  });
  result.worktrees.sort((x, y) => x.id.localeCompare(y.id));
  return result;
}

/** The worktree's HEAD and snapshot, or the reason it cannot be compared. */
async function readWorktree(id: string, entry: WorktreeEntry): Promise<DiscoveredWorktree | string> {
  const repo = await resolveRepo(entry.path);
  if (repo.head === null) return gitMessages.worktreeUnborn(entry.path);
  const snapshot = await snapshotWorktree(repo);
  const base = { id, path: entry.path, branch: entry.branch, tip: repo.head };
  if (!snapshot.dirty) return { ...base, uncommittedPaths: [] };
  const uncommittedPaths = [...(await changedPaths(entry.path, repo.head, snapshot.commit))];
  return { ...base, uncommittedPaths, snapshot: snapshot.commit };
}
