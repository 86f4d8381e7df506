import type { EngineOptions } from './options.js';

/**
 * The model's tunables, VALUES ONLY: a calibration pass on real merge history rewrites the numbers
 * in this file and nothing else (see docs/decisions/engine-model.md for what each one means).
 * Starting points are the reference implementation's defaults (MISSION.md §3).
 */
export const DEFAULTS: EngineOptions = Object.freeze({
  /** Channel weights ω_i. Proximity is off until calibrated; `merge` is the external git merge-tree channel. */
  weights: Object.freeze({ overlap: 1.0, dependency: 0.9, tree: 0.25, proximity: 0, merge: 1.0 }),
  /** γ in coupling = γ^(d−1): a direct import couples fully, each further hop halves it. */
  gamma: 0.5,
  /** Graph distance beyond which files are not coupled at all. */
  maxDepth: 6,
  /** Coupling (times the stronger file weight) below which the search stops expanding. */
  couplingCutoff: 0.01,
  /** Traffic Advisory at R ≥ 0.35, Resolution Advisory at R ≥ 0.70. */
  tauTA: 0.35,
  tauRA: 0.7,
  /** A file's recency weight halves toward the floor every 24 hours. */
  halfLifeMs: 24 * 60 * 60 * 1000,
  recencyFloor: 0.15,
  /** A declared-intent file counts as a whole-file edit with this weight. */
  intentWeight: 0.6,
  /** Touching hunks conflict in git, so they count as overlapping. */
  adjacency: true,
  /** Proximity: a shared file scores exp(−gap / 50 lines). */
  proximityLines: 50,
  /** Early TA: within 0.1 below τ_TA and closing at ≥ 0.2 risk per hour. */
  escalationMargin: 0.1,
  escalationRatePerHour: 0.2,
  /** Embedding: each file moves 35 % of the way toward the mean of its import neighbours. */
  embeddingPull: 0.35,
  /** Channels computed inside the engine (external ones such as `merge` arrive via options.external). */
  channels: Object.freeze(['overlap', 'proximity', 'dependency', 'tree']),
});
