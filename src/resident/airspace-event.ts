/**
 * What a subscription to the resident carries (src/resident/resident-subscribers.ts): one `event`
 * line per change of a worktree's advisories, each with all of them, not a difference — a client
 * that reconnects needs nothing it missed.
 */
export interface SubscribedAdvisory {
  readonly a: string;
  readonly b: string;
  readonly level: 'TA' | 'RA';
  readonly risk: number;
  readonly steer: string | null;
  readonly hold: string | null;
  readonly predictedRA: boolean;
  /** Shared files, at most 20 (the line stays small). */
  readonly files: readonly string[];
}

/** One `event` line: every advisory of the subscriber's agent now, not a difference. */
export interface AirspaceEvent {
  readonly at: number;
  readonly worktree: string;
  readonly agent: string;
  /** The worktree whose re-score brought the change. */
  readonly rescored: string;
  /** RA first, then by risk; `cut` more did not fit the line. */
  readonly advisories: readonly SubscribedAdvisory[];
  readonly cut: number;
}
