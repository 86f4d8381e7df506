import { clamp01 } from './resolve-options.js';
import type { FileEdit } from './types.js';

export interface RecencyOptions {
  readonly now: number | undefined;
  readonly halfLifeMs: number;
  readonly recencyFloor: number;
}

/**
 * w = floor + (1 − floor) · 2^(−age / halfLife), age = max(0, now − lastEditedAt).
 * Without `now` the engine has no clock, so recency is not applied (w = 1): results never
 * depend on when they were computed unless the caller says so.
 */
export function recencyWeight(lastEditedAt: number, options: RecencyOptions): number {
  const { now, halfLifeMs, recencyFloor } = options;
  if (now === undefined || !Number.isFinite(lastEditedAt)) return 1;
  const floor = clamp01(recencyFloor);
  const age = Math.max(0, now - lastEditedAt);
  const decay = halfLifeMs > 0 ? 2 ** (-age / halfLifeMs) : age > 0 ? 0 : 1;
  return floor + (1 - floor) * decay;
}

/** The weight w_f of one file entry: explicit `weight` wins, then recency, else 1. */
export function fileWeight(file: FileEdit, options: RecencyOptions): number {
  if (typeof file.weight === 'number' && Number.isFinite(file.weight)) return clamp01(file.weight);
  if (typeof file.lastEditedAt === 'number') return recencyWeight(file.lastEditedAt, options);
  return 1;
}
