import { DEFAULTS } from './defaults.js';
import type { EngineOptions, ScanOptions } from './options.js';
import type { ExternalChannelValue, RiskSample } from './types.js';

/** Options after merging with DEFAULTS: every tunable present, plus the per-scan inputs. */
export interface ResolvedOptions extends EngineOptions {
  readonly now: number | undefined;
  readonly external: readonly ExternalChannelValue[];
  readonly history: Readonly<Record<string, readonly RiskSample[]>>;
}

/**
 * Caller values win over DEFAULTS; `weights` is merged key by key so a caller can retune one
 * channel without restating the others. A non-finite `now` counts as absent (no recency).
 */
export function resolveOptions(options: ScanOptions = {}): ResolvedOptions {
  const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as ScanOptions;
  return {
    ...DEFAULTS,
    ...defined,
    weights: { ...DEFAULTS.weights, ...(options.weights ?? {}) },
    now: typeof options.now === 'number' && Number.isFinite(options.now) ? options.now : undefined,
    external: options.external ?? [],
    history: options.history ?? {},
  };
}

/** ω_i in [0, 1]; a channel without a configured weight counts with ω = 1. */
export function channelWeight(options: EngineOptions, channel: string): number {
  const weight = options.weights[channel];
  return weight === undefined ? 1 : clamp01(weight);
}

export function clamp01(value: number): number {
  if (!(value > 0)) return 0; // also maps NaN to 0
  return Math.min(value, 1);
}
