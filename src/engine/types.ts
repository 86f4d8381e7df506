/**
 * The engine's data model. Everything here is plain data: the engine takes it in and returns
 * it out, with no I/O and no clock of its own (`ScanOptions.now` is the single clock).
 */

/**
 * A 1-based, inclusive range of base-side line numbers `[start, end]`.
 * `end === start - 1` is an insertion point located just before line `start` (git's `-s,0` hunk
 * after line `start - 1`): it has no width but it has a position, so touching and proximity see it.
 */
export type LineRange = readonly [start: number, end: number];

export interface FileEdit {
  /** Repo-relative path in the pair's base coordinates (the base path for a rename). */
  readonly path: string;
  /** The path on this line of work when it differs (renames); both paths take part in scoring. */
  readonly newPath?: string;
  /** Edited line ranges in base coordinates, sorted or not; absent = whole-file edit. */
  readonly ranges?: readonly LineRange[];
  /** Epoch ms of the last edit of this file; drives the recency weight. */
  readonly lastEditedAt?: number;
  /** Explicit weight in (0, 1]; overrides the recency weight. */
  readonly weight?: number;
}

export interface Agent {
  /** Stable id, the same on every machine (e.g. the branch name). */
  readonly id: string;
  readonly files: readonly FileEdit[];
  /** Files declared as about to be touched: scored as whole-file entries with `intentWeight`. */
  readonly intent?: readonly string[];
  /** Right-of-way fact 1: more committed (pushed) work wins. */
  readonly committedWork?: number;
  /**
   * Right-of-way fact 2: on equal pushed work, more commits that a peer can verify win — the
   * commits a push is carrying, or those a beacon's commit carries (its ancestry travels with the
   * ref): committed work outranks uncommitted work whoever pushes first. Default `committedWork`.
   */
  readonly provenWork?: number;
  /** Right-of-way fact 3 (epoch ms): the earlier start wins a tie on committed work. */
  readonly startedAt?: number;
  /**
   * The name both machines know this agent by for the last tie-break (default `id`): an agent seen
   * under a local name here (`main`) and under its clone's name there (`main@<clone>`) must sort
   * the same on both, or both would hold.
   */
  readonly rankKey?: string;
}

/** Why the holding agent has right of way: the first fact that differed. */
export type HoldReason = 'committed-work' | 'proven-work' | 'started-earlier' | 'name-order';

/** Import graph: for each repo-relative file, the files it imports. Direction is ignored by the engine. */
export interface ImportGraph {
  readonly adjacency: Readonly<Record<string, readonly string[]>>;
}

export type AdvisoryLevel = 'clear' | 'TA' | 'RA';

/** A risk sample of one pair at one moment (epoch ms), for the closure rate. */
export interface RiskSample {
  readonly at: number;
  readonly risk: number;
}

/** Per-channel collision probabilities r_i in [0, 1], before weighting. */
export type ChannelScores = Record<string, number>;

/**
 * A channel computed outside the engine (e.g. the exact `git merge-tree` result), passed per pair.
 * The noisy-OR absorbs it with weight `weights[name]` (default 1).
 */
export interface ExternalChannelValue {
  readonly a: string;
  readonly b: string;
  readonly channel: string;
  /** r in [0, 1]; `null` = could not be computed (reported as unknown, never as clear). */
  readonly value: number | null;
  readonly reason?: string;
  /**
   * Set when this channel saw a collision as a fact, not a prediction: the two current states
   * conflict in `git merge-tree`, or one side removed a symbol the other side's new code uses.
   * One line saying what was seen. Only evidence can make a Resolution Advisory (see
   * docs/decisions/blocking-rule.md); prediction alone raises a Traffic Advisory at most.
   */
  readonly evidence?: string;
}

/** A fact that makes a collision certain, with the channel that saw it. */
export interface Evidence {
  readonly channel: string;
  readonly text: string;
}

export interface SharedFileDetail {
  readonly path: string;
  readonly rangesA?: readonly LineRange[];
  readonly rangesB?: readonly LineRange[];
  /** Overlap coefficient of the two sides' ranges (1 for a whole-file edit on either side). */
  readonly overlap: number;
  /** Lines between the two sides' nearest ranges (0 = overlapping or touching). */
  readonly gap: number;
}

export interface Link {
  readonly a: string;
  readonly b: string;
  /** R(a, b) = 1 − Π(1 − ω_i · r_i). */
  readonly risk: number;
  /** D(a, b) = 1 − R(a, b). */
  readonly distance: number;
  readonly level: AdvisoryLevel;
  /** Per-channel r_i (unweighted). */
  readonly channels: ChannelScores;
  /** The channel with the largest weighted contribution. */
  readonly driver: string | null;
  readonly sharedFiles: readonly SharedFileDetail[];
  /** Channels that could not be computed for this pair, with their reason. */
  readonly unknown?: readonly { channel: string; reason: string }[];
  /** What makes the collision certain (non-empty on every RA when `blockOn` is 'evidence'). */
  readonly evidence?: readonly Evidence[];
  /** Set when the risk reached τ_RA but nothing proves the collision: a Traffic Advisory, said so. */
  readonly predictedRA?: boolean;
  /** Set when a closing pair was escalated to TA below τ_TA. */
  readonly escalated?: boolean;
  readonly closureRate?: number;
  /** On an RA: the agent that holds course and the one that steers (always different). */
  readonly hold?: string;
  readonly steer?: string;
  /** On an RA: why `hold` has right of way. */
  readonly holdReason?: HoldReason;
}

export type Vec3 = readonly [number, number, number];

export interface ScanResult {
  readonly advisories: readonly Link[];
  readonly links: readonly Link[];
  readonly positions: Readonly<Record<string, Vec3>>;
  readonly fileCoordinates: Readonly<Record<string, Vec3>>;
  readonly counts: {
    readonly agents: number;
    readonly pairs: number;
    readonly clear: number;
    readonly TA: number;
    readonly RA: number;
  };
}
