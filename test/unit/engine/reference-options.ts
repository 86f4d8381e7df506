import type { EngineOptions } from '../../../src/index.js';

/**
 * The reference implementation's values (the seed's defaults). Equation tests pass these explicitly so
 * their hand-computed numbers do not depend on the calibrated DEFAULTS.
 */
export const REFERENCE_OPTIONS: Partial<EngineOptions> = {
  weights: { overlap: 1.0, dependency: 0.9, tree: 0.25, proximity: 0, breadth: 0, merge: 1.0 },
  gamma: 0.5,
  tauTA: 0.35,
  tauRA: 0.7,
  recencyFloor: 0.15,
  intentWeight: 0.6,
  proximityLines: 50,
  channels: ['overlap', 'proximity', 'dependency', 'tree'],
  // The seed blocks on risk alone; the product blocks on evidence (docs/decisions/blocking-rule.md).
  blockOn: 'risk',
};
