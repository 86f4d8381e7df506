import { channelWeight, clamp01 } from './resolve-options.js';
import type { EngineOptions } from './options.js';
import type { AdvisoryLevel, ChannelScores } from './types.js';

export interface Combined {
  /** R = 1 − Π(1 − ω_i · r_i), in [0, 1]. */
  readonly risk: number;
  /** The channel with the largest ω_i · r_i (ties: first by name); null when every term is 0. */
  readonly driver: string | null;
}

/** Noisy-OR (seed eq. 2): the probability of colliding through at least one channel. */
export function noisyOr(channels: ChannelScores, options: EngineOptions): Combined {
  let survive = 1;
  let driver: string | null = null;
  let strongest = 0;
  for (const name of Object.keys(channels).sort()) {
    const term = channelWeight(options, name) * clamp01(channels[name]!);
    survive *= 1 - term;
    if (term > strongest) {
      strongest = term;
      driver = name;
    }
  }
  return { risk: clamp01(1 - survive), driver };
}

/** Clear below τ_TA, Traffic Advisory from τ_TA, Resolution Advisory from τ_RA. */
export function levelOf(risk: number, options: Pick<EngineOptions, 'tauTA' | 'tauRA'>): AdvisoryLevel {
  if (risk >= options.tauRA) return 'RA';
  if (risk >= options.tauTA) return 'TA';
  return 'clear';
}
