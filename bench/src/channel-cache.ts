/**
 * The unweighted channel scores r_i of every case under an engine setting, memoised per channel.
 * Weights and thresholds are re-applied with the engine's own noisy-OR, so a grid over ω and τ
 * costs no rescan. Each channel depends on only part of the setting (overlap: recency and
 * adjacency; proximity: recency and proximityLines; dependency: recency and γ; tree: recency; breadth: recency and breadthFiles), so
 * one engine pass fills several grid points: `prewarm` covers a whole grid in
 * |half-lives| × |floors| × max(|γ|, |adjacency|, |lines|) passes instead of the full product.
 */
import { ENGINE_CHANNELS } from '../../src/engine/channel-names.js';
import type { ChannelScores } from '../../src/engine/types.js';
import type { EngineSetting } from '../../src/replay/calibrate.js';
import type { EvalCase } from './case-set.js';
import { scorePair, type EngineFns } from '../../src/replay/engine-runner.js';

export const CHANNEL_NAMES = ENGINE_CHANNELS;
type ChannelName = (typeof CHANNEL_NAMES)[number];

const recencyKey = (s: EngineSetting): string => `${s.halfLifeMs}|${s.recencyFloor}`;
const KEY_OF: Record<ChannelName, (s: EngineSetting) => string> = {
  overlap: (s) => `${recencyKey(s)}|adj=${s.adjacency}`,
  proximity: (s) => `${recencyKey(s)}|L=${s.proximityLines}`,
  dependency: (s) => `${recencyKey(s)}|g=${s.gamma}`,
  tree: (s) => recencyKey(s),
  breadth: (s) => `${recencyKey(s)}|K=${s.breadthFiles}`,
};

export interface ChannelCache {
  (setting: EngineSetting): readonly ChannelScores[];
  /** Engine passes run so far. */
  readonly passes: () => number;
  prewarm(settings: readonly EngineSetting[]): void;
}

export function channelCache(engine: EngineFns, cases: readonly EvalCase[]): ChannelCache {
  const memo = new Map<string, Float64Array>();
  const assembled = new Map<string, readonly ChannelScores[]>();
  const weights = Object.fromEntries(CHANNEL_NAMES.map((name) => [name, 1]));
  let passes = 0;
  const run = (setting: EngineSetting): void => {
    passes += 1;
    const columns = CHANNEL_NAMES.map(() => new Float64Array(cases.length));
    cases.forEach((c, i) => {
      const { channels } = scorePair(engine, c.agents, c.graph, c.now, { ...setting, weights, channels: CHANNEL_NAMES });
      CHANNEL_NAMES.forEach((name, k) => {
        columns[k]![i] = channels[name] ?? 0;
      });
    });
    CHANNEL_NAMES.forEach((name, k) => {
      memo.set(`${name}:${KEY_OF[name](setting)}`, columns[k]!);
    });
  };
  const missing = (s: EngineSetting): boolean => CHANNEL_NAMES.some((name) => !memo.has(`${name}:${KEY_OF[name](s)}`));
  const get = ((setting: EngineSetting) => {
    const key = CHANNEL_NAMES.map((name) => KEY_OF[name](setting)).join('#');
    let hit = assembled.get(key);
    if (hit) return hit;
    if (missing(setting)) run(setting);
    const columns = CHANNEL_NAMES.map((name) => memo.get(`${name}:${KEY_OF[name](setting)}`)!);
    hit = cases.map((_, i) => Object.fromEntries(CHANNEL_NAMES.map((name, k) => [name, columns[k]![i]!])));
    assembled.set(key, hit);
    return hit;
  }) as ChannelCache;
  Object.assign(get, {
    passes: () => passes,
    prewarm(settings: readonly EngineSetting[]) {
      const values = <T>(pick: (s: EngineSetting) => T): T[] => [...new Set(settings.map(pick))];
      const gammas = values((s) => s.gamma);
      const adjacencies = values((s) => s.adjacency);
      const lines = values((s) => s.proximityLines);
      const breadths = values((s) => s.breadthFiles);
      const width = Math.max(gammas.length, adjacencies.length, lines.length, breadths.length);
      for (const halfLifeMs of values((s) => s.halfLifeMs))
        for (const recencyFloor of values((s) => s.recencyFloor)) {
          for (let k = 0; k < width; k += 1) {
            const s = {
              halfLifeMs,
              recencyFloor,
              gamma: gammas[k % gammas.length]!,
              adjacency: adjacencies[k % adjacencies.length]!,
              proximityLines: lines[k % lines.length]!,
              breadthFiles: breadths[k % breadths.length]!,
            };
            if (missing(s)) run(s);
          }
        }
    },
  });
  return get;
}
