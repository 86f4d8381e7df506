/**
 * The product's constraints on thresholds, as bounds the calibration must respect (the data has no
 * intent files and few pure-import pairs, so a fit alone would not keep these behaviours):
 *  (a) two agents editing the same lines of one file → RA, so τ_RA ≤ R(single touching file);
 *  (d) a direct import with nothing shared is never an RA, so τ_RA > R(import + same folder);
 *  (e) breadth alone (wide lines of work, nothing shared, no import) stays clear, so τ_TA > R(breadth 1);
 *  (c) a declared intent against edited lines lands in the TA band: `intentWeightFor` picks it.
 * Each bound is the engine's own noisy-OR on the canonical pair's channel values.
 */
import { breadthScore } from '../engine/channels.js';
import { noisyOr } from './engine-runner.js';

export interface ThresholdBounds {
  /** τ_RA must be ≤ this (a). */
  readonly raAtMost: number;
  /** τ_RA must be > this (d). */
  readonly raAbove: number;
  /** τ_TA must be > this (e). */
  readonly taAbove: number;
  /** (c): some intent weight puts a declaration in the TA band [τ_TA, τ_RA). */
  readonly accepts?: (tauTA: number, tauRA: number) => boolean;
}

/** Gap left above a bound so a rounding of the risk cannot cross it. */
export const BOUND_MARGIN = 0.01;

export function productBounds(weights: Readonly<Record<string, number>>, breadthFiles: number): ThresholdBounds {
  const single = breadthScore(1, 1, breadthFiles);
  return {
    raAtMost: noisyOr({ overlap: 1, proximity: 1, tree: 1, breadth: single }, weights),
    raAbove: noisyOr({ dependency: 1, tree: 1, breadth: 1 }, weights),
    taAbove: noisyOr({ breadth: 1 }, weights),
    accepts: (tauTA, tauRA) => intentWeightFor(weights, breadthFiles, tauTA, tauRA) !== null,
  };
}

/** Risk of an intent-only whole-file entry (weight w) against one agent editing lines in that file. */
export function intentRisk(weights: Readonly<Record<string, number>>, breadthFiles: number, intentWeight: number): number {
  return noisyOr({ overlap: intentWeight, proximity: intentWeight, tree: intentWeight, breadth: breadthScore(intentWeight, 1, breadthFiles) }, weights);
}

/**
 * The smallest intent weight (in steps of 0.05) whose risk clears τ_TA by a margin and stays below
 * τ_RA: a declaration alone warns (TA) but never resolves (RA). null when the band is too thin.
 */
export function intentWeightFor(weights: Readonly<Record<string, number>>, breadthFiles: number, tauTA: number, tauRA: number): number | null {
  for (let w = 0.05; w <= 1.0001; w += 0.05) {
    const risk = intentRisk(weights, breadthFiles, w);
    if (risk >= tauTA + BOUND_MARGIN && risk < tauRA - BOUND_MARGIN) return Math.round(w * 100) / 100;
  }
  return null;
}
