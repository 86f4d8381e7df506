import { ENGINE_CHANNELS } from './channel-names.js';
import type { EngineOptions } from './options.js';

/**
 * The model's tunables, VALUES ONLY: calibrated on real merge history (922 merges of mongoose,
 * express and mocha, fit at "both-active f = 0.5", cross-validated by repository) within the
 * product's bounds. Evidence, trade-offs and the command that reproduces them:
 * docs/decisions/calibration.md; what each value means: docs/decisions/engine-model.md.
 */
export const DEFAULTS: EngineOptions = Object.freeze({
  /**
   * Channel weights ω_i. Proximity (the closing distance inside a shared file) carries the signal;
   * overlap adds git's touching rule; breadth (both lines of work wide) is a prior, below τ_TA on
   * its own; dependency is kept visible but small (no predictive value on the data, never an RA
   * on its own); tree adds nothing measurable. `merge` = the external git merge-tree channel.
   */
  weights: Object.freeze({ overlap: 0.2, proximity: 0.7, dependency: 0.05, tree: 0, breadth: 0.35, merge: 1.0, symbol: 1.0 }),
  /** γ in coupling = γ^(d−1): a direct import couples fully, each further hop halves it. */
  gamma: 0.5,
  /**
   * Graph distance beyond which files are not coupled at all. 4, not the reference's 6: the
   * calibration graphs keep distances ≤ 4 only, and at ω_dep 0.05 a 5-hop coupling adds ≤ 0.003
   * to R; the search then stops before hub modules pull in the whole graph (bench/results/engine.md).
   */
  maxDepth: 4,
  /** Coupling (times the stronger file weight) below which the search stops expanding. */
  couplingCutoff: 0.01,
  /**
   * TA from 0.62 (training recall ≥ 0.85), RA from 0.77: the lowest risk reaching precision 0.85 in
   * every training repository, capped so two agents on the same line of one file are an RA.
   */
  tauTA: 0.62,
  tauRA: 0.77,
  /** Recency decay toward the floor; floor 1 = no decay: every calibration fold chose it. */
  halfLifeMs: 24 * 60 * 60 * 1000,
  recencyFloor: 1,
  /** A declared-intent file counts as a whole-file edit with this weight: against edited lines, a TA (0.65), never an RA. */
  intentWeight: 0.8,
  /** Touching hunks conflict in git, so they count as overlapping. */
  adjacency: true,
  /** Proximity: a shared file scores exp(−gap / 50 lines). */
  proximityLines: 50,
  /** Breadth: r = 1 − exp(−√(n_a · n_b) / 5 files). */
  breadthFiles: 5,
  /** Early TA: within 0.1 below τ_TA and closing at ≥ 0.2 risk per hour. */
  escalationMargin: 0.1,
  escalationRatePerHour: 0.2,
  /** Embedding: each file moves 35 % of the way toward the mean of its import neighbours. */
  embeddingPull: 0.35,
  /** Block on evidence, warn on prediction: docs/decisions/blocking-rule.md. */
  blockOn: 'evidence',
  /** Channels computed inside the engine (external ones such as `merge` arrive via options.external). */
  channels: Object.freeze([...ENGINE_CHANNELS]),
});
