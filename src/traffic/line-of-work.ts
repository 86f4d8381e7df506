import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import type { HookProtection } from '../install/hook-coverage.js';

/**
 * One agent as the git layer sees it: a worktree, a branch, an explicit revision or (later) a
 * beacon. Plain data; `collectAirspace` builds them and the CLI turns them into engine agents.
 */
export type LineOfWorkKind = 'worktree' | 'branch' | 'revision' | 'beacon';

export interface PriorityFacts {
  /** Commits in `<trunk>..<pushed ref>` (see docs/decisions/git-working-sets.md). */
  readonly committedWork: number;
  /** Committer time (epoch ms) of the oldest of those commits; undefined when there are none. */
  readonly startedAt?: number;
}

export interface LineOfWork {
  /** Stable id, the same on every machine: the branch name, or `worktree:<name>-<hash>`. */
  readonly id: string;
  readonly kind: LineOfWorkKind;
  /** The committed tip (HEAD of a worktree, the branch or revision commit). */
  readonly tip: string;
  /** A commit (parent = tip) holding the uncommitted work too; absent when there is none. */
  readonly snapshot?: string;
  readonly worktreePath?: string;
  /** The worktree's own git dir (its intent and inbox live there), read once at discovery. */
  readonly gitDir?: string;
  readonly branch?: string;
  /** Commit subjects since the trunk, newest first, capped. */
  readonly subjects: readonly string[];
  /** Commits since the trunk on `tip` (unpushed ones included; `facts` counts pushed ones only). */
  readonly commitsSinceTrunk: number;
  /** Right-of-way facts of what both machines can see: the pushed commits (pre-push: what is being pushed). */
  readonly facts: PriorityFacts;
  /** The same facts of every commit on the line since the trunk, pushed or not: what a beacon of it can prove. */
  readonly localFacts: PriorityFacts;
  /** True when peers can see the line under its own name: its branch is on the remote (or there is no remote). */
  readonly published: boolean;
  /** Files changed in the worktree on top of `tip` (uncommitted), as side paths. */
  readonly uncommittedPaths?: readonly string[];
  /** A local worktree: whether git runs our hooks there (src/install/hook-coverage.ts). */
  readonly protection?: HookProtection;
}

/** The commit that holds everything this line of work has, uncommitted work included. */
export function targetOf(line: LineOfWork): string {
  return line.snapshot ?? line.tip;
}

/**
 * A worktree on a detached HEAD has no branch name to share, so its id comes from its path:
 * readable (the folder name) and unique (a short hash of the absolute path).
 */
export function worktreeAgentId(path: string): string {
  const hash = createHash('sha256').update(path).digest('hex').slice(0, 8);
  return `worktree:${basename(path)}-${hash}`;
}
