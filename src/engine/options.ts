import type { ExternalChannelValue, RiskSample } from './types.js';

/**
 * Every tunable of the model. `DEFAULTS` holds the calibrated values (see
 * docs/decisions/calibration.md); callers pass a partial object and get the rest from DEFAULTS.
 */
export interface EngineOptions {
  /** Channel weights ω_i; a channel without a weight counts with ω = 1. */
  readonly weights: Readonly<Record<string, number>>;
  /** Dependency decay γ in coupling = γ^(d−1). */
  readonly gamma: number;
  /** Bounded BFS: maximum graph distance explored. */
  readonly maxDepth: number;
  /** Bounded BFS: stop expanding where the coupling falls below this. */
  readonly couplingCutoff: number;
  /** Traffic Advisory threshold τ_TA. */
  readonly tauTA: number;
  /** Resolution Advisory threshold τ_RA. */
  readonly tauRA: number;
  /** Recency: half-life (ms) of a file's weight, which decays toward `recencyFloor`. */
  readonly halfLifeMs: number;
  readonly recencyFloor: number;
  /** Weight of a declared-intent file (whole-file entry). */
  readonly intentWeight: number;
  /** Count touching ranges (git's adjacency rule) as overlapping in the overlap channel. */
  readonly adjacency: boolean;
  /** Proximity channel scale: a shared file scores exp(−gap / proximityLines). */
  readonly proximityLines: number;
  /** Breadth channel scale: r = 1 − exp(−√(n_a · n_b) / breadthFiles), n = weighted file count. */
  readonly breadthFiles: number;
  /** Early escalation to TA: risk within `escalationMargin` below τ_TA and closing at least this fast (risk per hour). */
  readonly escalationMargin: number;
  readonly escalationRatePerHour: number;
  /** Embedding: how far each file is pulled toward the mean of its dependency neighbours. */
  readonly embeddingPull: number;
  /**
   * What a Resolution Advisory needs. 'evidence' (default): R ≥ τ_RA is not enough, a channel must
   * have seen the collision (ExternalChannelValue.evidence); 'risk': R ≥ τ_RA alone, as the seed.
   */
  readonly blockOn: 'evidence' | 'risk';
  /** Channels to compute (others are skipped). */
  readonly channels: readonly string[];
}

export interface ScanOptions extends Partial<EngineOptions> {
  /** The single clock of a scan (epoch ms): recency and age are taken relative to it. */
  readonly now?: number;
  /** Channels computed outside the engine, per pair (e.g. the exact merge channel). */
  readonly external?: readonly ExternalChannelValue[];
  /** Risk history per pair (key from `pairKey(a, b)`), for the closure rate. */
  readonly history?: Readonly<Record<string, readonly RiskSample[]>>;
}
