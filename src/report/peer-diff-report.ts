/**
 * What `diff PEER [FILE]` and the MCP `peer_diff` tool return: the peer's hunks near this agent's
 * own changes, as data. Every string in it that came from the peer (id, paths, subjects, diff
 * lines) is already sanitized (src/report/sanitize-text.ts); sizes are capped and what was cut is
 * counted. Versioned by `schema`; it only grows within a version.
 */
export const PEER_DIFF_SCHEMA = 'airspace-hooks/peer-diff@1';

/** Defaults of `diff` and `peer_diff`: near = within 20 lines; small enough for an agent's context. */
export const PEER_DIFF_DEFAULTS = { near: 20, context: 3, maxHunks: 20, maxBytes: 16 * 1024 } as const;

/** What is asked: which peer, optionally one file, and the limits. */
export interface PeerDiffQuery {
  /** An id from check/scan, a branch name, or a worktree folder name or path. */
  readonly peer: string;
  /** Only this file (as typed, relative to cwd); all its peer hunks when this agent has not touched it. */
  readonly file?: string;
  /** A peer hunk within this many lines of one of your ranges counts as near. */
  readonly near: number;
  readonly context: number;
  readonly maxHunks: number;
  /** Cap on the total bytes of hunk lines returned. */
  readonly maxBytes: number;
}

export interface PeerDiffHunk {
  /**
   * The peer's changed lines in the pair's merge-base coordinates, 1-based inclusive `[start, end]`
   * as in the report (docs/json-output.md); `[s, s-1]` is an insertion just before line s.
   */
  readonly range: readonly [number, number];
  readonly header: string;
  readonly lines: readonly string[];
}

export interface PeerDiffFile {
  readonly path: string;
  /** This agent's changed ranges, same coordinates and form; null: a whole-file edit or intent only. */
  readonly ownRanges: readonly (readonly [number, number])[] | null;
  /** True when no own change was there to be near (FILE named explicitly): every peer hunk is shown. */
  readonly allHunks: boolean;
  /** The peer's commits touching the file since the base, newest first (capped). */
  readonly subjects: readonly string[];
  /** Part of the peer's change there is not committed yet (a worktree snapshot). */
  readonly uncommitted: boolean;
  readonly binary: boolean;
  readonly hunks: readonly PeerDiffHunk[];
}

export interface PeerDiffReport {
  readonly schema: typeof PEER_DIFF_SCHEMA;
  readonly peer: string;
  readonly source: 'worktree' | 'branch' | 'revision' | 'beacon';
  readonly base: string;
  /** Lines of context around each hunk, and the distance that counts as near. */
  readonly context: number;
  readonly near: number;
  readonly files: readonly PeerDiffFile[];
  /** What the caps left out: files whose diff was too large, hunks and bytes over the limits. */
  readonly cut: { readonly files: number; readonly hunks: number; readonly bytes: number };
}
