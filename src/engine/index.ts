/** The engine's public surface: pure functions on plain data (see docs/decisions/engine-model.md). */
export { DEFAULTS } from './defaults.js';
export { scanAirspace } from './scan-airspace.js';
export {
  scorePairList,
  preparePairList,
  contactBoundOf,
  type LateOptions,
  type PairListOptions,
  type PairListResult,
  type PreparedPairList,
} from './score-pair-list.js';
export { collisionRisk, advise } from './collision-risk.js';
export type { PairRisk } from './pair-scorer.js';
export { rightOfWay, comparePriority, type RightOfWay } from './right-of-way.js';
export { closureRate, pairKey, shouldEscalate } from './closure-rate.js';
export { embedAgents, type Embedding } from './embed-agents.js';
export { noisyOr, levelOf, type Combined } from './noisy-or.js';
export { recencyWeight, fileWeight } from './recency.js';
export { treeDistance } from './tree-proximity.js';
export { couplingTable } from './dependency-reach.js';
export { CHANNELS, type ChannelDefinition, type PairContext, type ScanContext } from './channels.js';
export { EngineError, type EngineErrorCode } from './engine-error.js';
export {
  toSlots,
  toSpans,
  mergeIntervals,
  totalLength,
  intersectionLength,
  overlapCoefficient,
  spansTouch,
  gapBetween,
  type Interval,
} from './intervals.js';
export type { EngineOptions, ScanOptions } from './options.js';
export type * from './types.js';
export type { ContactRule } from './contact-bound.js';
