import type { ScanOptions } from './options.js';
import { createPairScorer, type PairRisk } from './pair-scorer.js';
import { resolveOptions } from './resolve-options.js';
import type { Agent, ImportGraph, Link } from './types.js';

/**
 * R(a, b) with its channels, driver, shared-file details and unknown channels — for one pair.
 * The graph's undirected index is cached per graph object, so repeated calls stay cheap.
 */
export function collisionRisk(a: Agent, b: Agent, graph: ImportGraph, options?: ScanOptions): PairRisk {
  return createPairScorer([a, b], graph, resolveOptions(options)).risk(0, 1);
}

/**
 * The advisory for one pair: level from τ_TA / τ_RA, early escalation from the pair's history
 * (options.history[pairKey(a, b)] plus the current sample at options.now), and on an RA the
 * coordinated hold / steer.
 */
export function advise(a: Agent, b: Agent, graph: ImportGraph, options?: ScanOptions): Link {
  return createPairScorer([a, b], graph, resolveOptions(options)).link(0, 1);
}
