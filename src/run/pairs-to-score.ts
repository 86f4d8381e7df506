import type { ModelOverrides } from '../config/defaults.js';
import type { PairWorkingSets } from '../traffic/collect-airspace.js';
import type { Unpaired } from '../traffic/every-pair.js';
import type { AgentFacts } from '../traffic/to-agent.js';
import { buildUnpaired, unpairedMeetingIntent } from '../traffic/unpaired-pairs.js';
import { SYMBOLS_ON_EVERY_PAIR_UP_TO } from './compute-git-channels.js';
import { scanContactRule } from './score-pairs.js';

/**
 * Between stage 2 and 3 of `scan` (src/run/run-airspace.ts): which of the pairs the traffic layer
 * left unbuilt (their paths do not meet, src/traffic/every-pair.ts) must be built after all. None
 * when the model proves a pair without a shared path clear (the engine's 'path' rule) and the
 * symbol channel runs on listed pairs only; then only those a declared intent makes meet, and the
 * rest are counted as clear without contact. Otherwise all of them: a heavier dependency or
 * breadth weight can make a pair without a shared path matter, and a scan of a few dozen agents
 * runs the symbol channel on every pair (src/run/compute-git-channels.ts).
 */
export interface PairsToScoreInput {
  readonly pairs: readonly PairWorkingSets[];
  readonly unpaired: Unpaired | undefined;
  readonly facts: ReadonlyMap<string, AgentFacts>;
  readonly model: ModelOverrides;
  readonly channels: readonly string[];
  readonly contactOnly: boolean;
}

export interface PairsToScore {
  readonly pairs: PairWorkingSets[];
  /** Pairs left unbuilt: clear without contact (engine LateOptions.provenClear). */
  readonly provenClear: number;
  /** Every pair of the scan, built or not. */
  readonly inScan: number;
}

/**
 * Whether a scan of `pairsInScan` pairs leaves the unbuilt pairs unbuilt (but those an intent makes
 * meet): the traffic stage asks it before building (src/run/collect-traffic.ts), so that it may also
 * leave unbuilt the pairs it could not build later (lines of different trunk commits, every-pair.ts).
 */
export function unbuiltStayUnbuilt(pairsInScan: number, model: ModelOverrides, channels: readonly string[]): boolean {
  const symbolsOnEveryPair = channels.includes('symbol') && pairsInScan <= SYMBOLS_ON_EVERY_PAIR_UP_TO;
  return !symbolsOnEveryPair && scanContactRule(model, channels) === 'path';
}

export function pairsToScore(input: PairsToScoreInput): PairsToScore {
  const { unpaired } = input;
  if (!unpaired || unpaired.count === 0) return { pairs: [...input.pairs], provenClear: 0, inScan: input.pairs.length };
  const inScan = input.pairs.length + unpaired.count;
  // Pairs across trunk commits were left unbuilt after the traffic stage asked the same question
  // (with the fewest pairs the scan could have): its answer stands, also when pairs that git could
  // not compare since made the scan smaller.
  const stay = unpaired.across > 0 || (input.contactOnly && unbuiltStayUnbuilt(inScan, input.model, input.channels));
  if (!stay) return { pairs: [...input.pairs, ...buildUnpaired(unpaired)], provenClear: 0, inScan };
  const intent = unpairedMeetingIntent(unpaired, (id) => input.facts.get(id)?.intent ?? []);
  return { pairs: [...input.pairs, ...intent.pairs], provenClear: intent.left, inScan };
}
