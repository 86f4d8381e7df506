import type { EngineOptions } from './options.js';
import type { RiskSample } from './types.js';

const HOUR_MS = 60 * 60 * 1000;

/** A key for a pair that does not depend on the order of its agents (for persisted history). */
export function pairKey(a: string, b: string): string {
  return JSON.stringify(a < b ? [a, b] : [b, a]);
}

/**
 * Closure rate in risk per hour: (R_t − R_{t−Δt}) / Δt from the two most recent samples with
 * distinct times (the seed's definition; for equal times the later one in the list counts).
 * null when fewer than two distinct times are known. Positive = closing.
 */
export function closureRate(samples: readonly RiskSample[]): number | null {
  const valid = samples
    .map((sample, order) => ({ ...sample, order }))
    .filter((s) => Number.isFinite(s.at) && Number.isFinite(s.risk))
    .sort((x, y) => x.at - y.at || x.order - y.order);
  const last = valid[valid.length - 1];
  if (last === undefined) return null;
  for (let i = valid.length - 2; i >= 0; i--) {
    const previous = valid[i]!;
    if (previous.at < last.at) return (last.risk - previous.risk) / ((last.at - previous.at) / HOUR_MS);
  }
  return null;
}

/**
 * Early escalation: a clear pair within `escalationMargin` below τ_TA that closes at
 * `escalationRatePerHour` or faster is raised to TA before it enters the protected zone.
 */
export function shouldEscalate(
  risk: number,
  rate: number | null,
  options: Pick<EngineOptions, 'tauTA' | 'escalationMargin' | 'escalationRatePerHour'>,
): boolean {
  if (rate === null) return false;
  return risk < options.tauTA && risk >= options.tauTA - options.escalationMargin && rate >= options.escalationRatePerHour;
}
