/**
 * Runs the product's engine on one pair. The engine functions are passed in (the benchmark takes
 * them from the built package, `dist/index.js`), so this scores exactly what users run and the
 * evaluation code does not reach into the engine's internals.
 */
import type { Agent, AdvisoryLevel, ChannelScores, ImportGraph, Link, ScanResult } from '../engine/types.js';
import type { ScanOptions } from '../engine/options.js';

export type ScanFn = (agents: readonly Agent[], graph: ImportGraph, options?: ScanOptions) => ScanResult;
export type AdviseFn = (a: Agent, b: Agent, graph: ImportGraph, options?: ScanOptions) => Link;

export interface EngineFns {
  readonly scanAirspace: ScanFn;
  /** The engine's one-pair advisory (`advise`): same scorer as a scan, without the embedding. */
  readonly advise?: AdviseFn;
}

export interface EngineScore {
  readonly risk: number;
  readonly level: AdvisoryLevel;
  /** Unweighted r_i per channel, so weights and thresholds can be re-applied without a rescan. */
  readonly channels: ChannelScores;
}

const CLEAR: EngineScore = { risk: 0, level: 'clear', channels: {} };

/** The engine's verdict on the two agents at `now` (epoch ms); no link = risk 0. */
export function scorePair(engine: EngineFns, agents: readonly [Agent, Agent], graph: ImportGraph, now: number, options: ScanOptions = {}): EngineScore {
  const scanOptions = { ...options, now };
  let link: Link | undefined;
  if (engine.advise) link = engine.advise(agents[0], agents[1], graph, scanOptions);
  else {
    const result = engine.scanAirspace(agents, graph, scanOptions);
    const ids = new Set([agents[0].id, agents[1].id]);
    link = result.links.find((l) => ids.has(l.a) && ids.has(l.b));
  }
  if (!link) return CLEAR;
  return { risk: link.risk, level: link.level, channels: link.channels };
}

/** R = 1 − Π(1 − ω_i·r_i) over `channels`; a channel without a weight counts with ω = 1 (the engine's rule). */
export function noisyOr(channels: ChannelScores, weights: Readonly<Record<string, number>>): number {
  let clear = 1;
  for (const [name, r] of Object.entries(channels)) clear *= 1 - (weights[name] ?? 1) * Math.min(1, Math.max(0, r));
  return Math.min(1, Math.max(0, 1 - clear));
}
