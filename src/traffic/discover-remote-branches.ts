import { compileGlobs } from '../config/compile-globs.js';
import { branchName, remoteBranches, type RefListing } from '../git/list-refs.js';
import { byCodeUnits } from '../engine/code-unit-order.js';

export interface BranchFilter {
  /** Globs on the branch name (`feature/**`); empty = every branch. */
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  /** Branches whose tip is older than this (relative to `at`) are not traffic. */
  readonly maxAgeDays: number;
  /** Evaluation time, epoch ms. */
  readonly at: number;
}

export interface RemoteBranch {
  /** Agent id: the branch name without its ref prefix, the same on every machine. */
  readonly id: string;
  readonly ref: string;
  readonly sha: string;
  readonly committedAt: number;
}

/**
 * The remote's branches that may be traffic, from the ref listing already in hand (no git call):
 * which exist and their tips as src/git/list-refs.ts `remoteBranches` knows them (a branch deleted
 * upstream is gone once the tool has fetched, whatever the user's remote-tracking refs still hold).
 * Left out: `<remote>/HEAD` (a symref to the trunk), the trunk, the ownship's own branch, branches
 * outside the globs and branches idle for longer than `maxAgeDays`. Whether a branch has work that
 * is not in the trunk is decided later from the commit graph (one `git log` for all of them).
 */
export function discoverRemoteBranches(listing: RefListing, remote: string, skip: ReadonlySet<string>, filter: BranchFilter): RemoteBranch[] {
  const included = filter.include.length > 0 ? compileGlobs(filter.include) : () => true;
  const excluded = filter.exclude.length > 0 ? compileGlobs(filter.exclude) : () => false;
  const oldest = filter.at - filter.maxAgeDays * 24 * 60 * 60 * 1000;
  const branches: RemoteBranch[] = [];
  for (const entry of remoteBranches(listing, remote)) {
    const id = branchName(entry.ref, remote);
    if (id === 'HEAD' || skip.has(id)) continue;
    if (!included(id) || excluded(id)) continue;
    if (Number.isFinite(filter.maxAgeDays) && entry.committedAt < oldest) continue;
    branches.push({ id, ref: entry.ref, sha: entry.sha, committedAt: entry.committedAt });
  }
  return branches.sort((x, y) => byCodeUnits(x.id, y.id));
}
