/**
 * A line of work's changes against one base, in the form git reports them (and the form of the
 * merge-scenario data): half-open `[start, end)` intervals of 1-based base line numbers, one per
 * `@@ -s,c +t,d @@` hunk. A pure insertion after base line s (`c == 0`) is the empty range
 * `[s+1, s+1)`. This is the boundary type between the git layer (or a dataset) and the engine;
 * `toAgent` turns it into the engine's `Agent`.
 */
export type FileStatus = 'A' | 'M' | 'D' | 'R' | 'T' | 'C' | 'U' | 'X';

export interface WorkingSetFile {
  /** Base path (for `A`: the new path; there is no base file). */
  readonly file: string;
  /** Path on the side when it differs from `file` (renames). */
  readonly path?: string;
  readonly status: FileStatus;
  /** Half-open base-coordinate ranges; absent for whole-file edits. */
  readonly ranges?: readonly (readonly [number, number])[];
  /**
   * One id per entry of `ranges` (same order): a digest of the hunk's removed and added lines. Two
   * sides with the same range and id made the same change there, which git merges cleanly.
   */
  readonly hunkIds?: readonly string[];
  /** Object id of the file as this side leaves it (all zeros for a deletion), when git reported it. */
  readonly blob?: string;
  /** Whole-file edit: added, deleted, type-changed or binary. */
  readonly whole?: boolean;
  readonly binary?: boolean;
  /** Epoch ms of the last edit (last commit touching it, or mtime for uncommitted work). */
  readonly lastEditTime?: number | null;
  /** Where the change lives: committed on the line of work, or uncommitted in a worktree. */
  readonly origin?: 'committed' | 'uncommitted' | 'beacon' | 'intent';
}

export interface WorkingSet {
  /** The base the ranges are relative to (a commit sha), or null when unknown. */
  readonly base: string | null;
  readonly files: readonly WorkingSetFile[];
}
