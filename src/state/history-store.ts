/**
 * Risk samples per pair over time, for the closure rate (R_t − R_{t−Δt}) / Δt. Shared by all
 * worktrees of the repository (`<common-dir>/airspace/history.json`): both agents of a local pair
 * feed the same series. Bounded: 50 samples per pair, 500 pairs (the least recently sampled go
 * first), samples older than 14 days pruned.
 */
import { readJsonFile, updateJsonFile } from './json-file.js';
import { stateFile } from './state-dirs.js';
import type { RiskSample } from '../engine/types.js';

/** The engine's risk sample (epoch ms, risk R in [0, 1]) with the pair it belongs to. */
export interface PairRiskSample extends RiskSample {
  readonly pairKey: string;
}

export interface HistoryPoint {
  readonly at: number;
  readonly risk: number;
}

export interface HistoryBounds {
  readonly maxPerPair: number;
  readonly maxPairs: number;
  readonly maxAgeMs: number;
}

export const DEFAULT_HISTORY_BOUNDS: HistoryBounds = { maxPerPair: 50, maxPairs: 500, maxAgeMs: 14 * 24 * 60 * 60 * 1000 };

const FILE = 'history.json';
const MAX_FILE_BYTES = 8 * 1024 * 1024;
const MAX_KEY_LENGTH = 1024;

type Series = Map<string, HistoryPoint[]>;

function load(value: unknown): Series {
  const series: Series = new Map();
  const pairs = (value as { pairs?: unknown } | null)?.pairs;
  if (typeof pairs !== 'object' || pairs === null) return series;
  for (const [key, points] of Object.entries(pairs)) {
    if (key.length > MAX_KEY_LENGTH || !Array.isArray(points)) continue;
    const clean = points
      .filter((p): p is [number, number] => Array.isArray(p) && Number.isFinite(p[0]) && Number.isFinite(p[1]))
      .map(([at, risk]) => ({ at, risk: clamp(risk) }));
    if (clean.length > 0) series.set(key, clean);
  }
  return series;
}

function clamp(risk: number): number {
  return Math.min(1, Math.max(0, risk));
}

/** Sort, keep one sample per instant (the last written), cut to the bounds. */
function prune(series: Series, bounds: HistoryBounds, now: number): Series {
  const kept: [string, HistoryPoint[]][] = [];
  for (const [key, points] of series) {
    const byTime = new Map<number, HistoryPoint>();
    for (const point of points) if (point.at >= now - bounds.maxAgeMs) byTime.set(point.at, point);
    const sorted = [...byTime.values()].sort((a, b) => a.at - b.at).slice(-bounds.maxPerPair);
    if (sorted.length > 0) kept.push([key, sorted]);
  }
  kept.sort((a, b) => b[1].at(-1)!.at - a[1].at(-1)!.at);
  return new Map(kept.slice(0, bounds.maxPairs));
}

function serialize(series: Series): { version: 1; pairs: Record<string, [number, number][]> } {
  // Object.fromEntries defines own properties, so a pair key like `__proto__` stays plain data.
  return { version: 1, pairs: Object.fromEntries([...series].map(([key, points]) => [key, points.map((p) => [p.at, p.risk] as [number, number])])) };
}

export async function appendSamples(commonDir: string, samples: readonly PairRiskSample[], bounds: Partial<HistoryBounds> = {}): Promise<void> {
  const valid = samples.filter((s) => typeof s.pairKey === 'string' && s.pairKey.length <= MAX_KEY_LENGTH && Number.isFinite(s.at) && Number.isFinite(s.risk));
  if (valid.length === 0) return;
  const limits = { ...DEFAULT_HISTORY_BOUNDS, ...bounds };
  // "Now" is the newest sample written: the store reads no clock, so tests and replays are exact.
  // A loop, not Math.max(...): a scan of 1,000 agents writes 499,500 samples, past the argument limit.
  let now = -Infinity;
  for (const sample of valid) if (sample.at > now) now = sample.at;
  await updateJsonFile(stateFile(commonDir, FILE), MAX_FILE_BYTES, (current) => {
    const series = load(current);
    for (const sample of valid) {
      const points = series.get(sample.pairKey) ?? [];
      points.push({ at: sample.at, risk: clamp(sample.risk) });
      series.set(sample.pairKey, points);
    }
    return serialize(prune(series, limits, now));
  });
}

export async function readHistory(commonDir: string): Promise<Record<string, HistoryPoint[]>> {
  const series = load(await readJsonFile(stateFile(commonDir, FILE), MAX_FILE_BYTES));
  return Object.fromEntries(series);
}
