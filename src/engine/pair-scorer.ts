import { CHANNELS, type PairContext } from './channels.js';
import { closureRate, pairKey, shouldEscalate } from './closure-rate.js';
import { graphIndex } from './graph-index.js';
import { levelOf, noisyOr } from './noisy-or.js';
import { prepareAgent, type PreparedAgent } from './prepare-agent.js';
import { clamp01, type ResolvedOptions } from './resolve-options.js';
import { rightOfWay } from './right-of-way.js';
import { sharedFiles } from './shared-files.js';
import type { Agent, ChannelScores, Evidence, ExternalChannelValue, ImportGraph, Link, SharedFileDetail } from './types.js';

/** The risk part of a link: everything but the advisory decision. */
export type PairRisk = Pick<Link, 'a' | 'b' | 'risk' | 'distance' | 'channels' | 'driver' | 'sharedFiles' | 'unknown' | 'evidence'>;

export interface PairScorer {
  readonly agents: readonly PreparedAgent[];
  risk(i: number, j: number): PairRisk;
  link(i: number, j: number): Link;
  /** True when agents i and j have a path in common (inverted index, no file-list comparison). */
  sharesPath(i: number, j: number): boolean;
  /**
   * True when the pair has contact: a shared path or an external value that is not a plain 0 (a
   * value > 0, evidence, or unknown); with `graph`, also graph contact (dependency r > 0). A pair
   * without it scores 0 in overlap, proximity, every external channel (and dependency).
   */
  contact(i: number, j: number, graph: boolean): boolean;
  /**
   * The same scorer (prepared agents, graph search, caches) with other external values: for a
   * caller that computes an external channel only for the pairs `contact` selected.
   */
  withExternal(values: readonly ExternalChannelValue[]): PairScorer;
}

type ExternalIndex = Map<string, Map<string, { value: number | null; reason: string | undefined; evidence: string | undefined }>>;

/** External values per pair and channel; several values for one channel keep the largest known one. */
function indexExternal(values: readonly ExternalChannelValue[]): ExternalIndex {
  const index: ExternalIndex = new Map();
  for (const item of values) {
    const key = pairKey(item.a, item.b);
    let byChannel = index.get(key);
    if (byChannel === undefined) {
      byChannel = new Map();
      index.set(key, byChannel);
    }
    const value = item.value === null || !Number.isFinite(item.value) ? null : clamp01(item.value);
    const previous = byChannel.get(item.channel);
    if (previous === undefined || (value !== null && (previous.value === null || value > previous.value))) {
      byChannel.set(item.channel, { value, reason: item.reason, evidence: item.evidence ?? previous?.evidence });
    } else if (item.evidence !== undefined && previous.evidence === undefined) {
      byChannel.set(item.channel, { ...previous, evidence: item.evidence });
    }
  }
  return index;
}

/** Everything a scan (or a single-pair call) shares: prepared agents, graph, channel caches. */
export function createPairScorer(agents: readonly Agent[], graph: ImportGraph, options: ResolvedOptions): PairScorer {
  const prepared = agents.map((agent) => prepareAgent(agent, options));
  const scan = { agents: prepared, graph: graphIndex(graph), options };
  const builtIn = options.channels.flatMap((name) => {
    const channel = CHANNELS.get(name);
    return channel === undefined ? [] : [{ name, score: channel.prepare(scan) }];
  });
  const partners = sharingPartners(prepared);
  const dependency = builtIn.find((channel) => channel.name === 'dependency')?.score;
  return assemble({ prepared, builtIn, partners, dependency, options }, indexExternal(options.external));
}

interface SharedParts {
  readonly prepared: readonly PreparedAgent[];
  readonly builtIn: readonly { name: string; score: (pair: PairContext) => number }[];
  readonly partners: readonly Set<number>[];
  readonly dependency: ((pair: PairContext) => number) | undefined;
  readonly options: ResolvedOptions;
}

function assemble(parts: SharedParts, external: ExternalIndex): PairScorer {
  const { prepared, builtIn, partners, dependency, options } = parts;

  const risk = (i: number, j: number): PairRisk => {
    const a = prepared[i]!;
    const b = prepared[j]!;
    // The inverted index says which pairs share a path: the others have no shared file by construction.
    const shared = partners[i]!.has(j) ? sharedFiles(a, b, options) : [];
    const pair: PairContext = { a: i, b: j, shared };
    const channels: ChannelScores = {};
    for (const { name, score } of builtIn) channels[name] = clamp01(score(pair));
    const unknown: { channel: string; reason: string }[] = [];
    const evidence: Evidence[] = [];
    const supplied = external.get(pairKey(a.id, b.id)) ?? new Map();
    for (const [channel, { value, reason, evidence: seen }] of supplied) {
      if (value === null) unknown.push({ channel, reason: reason ?? 'not computed' });
      else channels[channel] = value;
      if (seen !== undefined) evidence.push({ channel, text: seen });
    }
    // A requested channel that nobody computed is unknown, never a silent zero.
    for (const name of options.channels) {
      if (!CHANNELS.has(name) && !supplied.has(name)) unknown.push({ channel: name, reason: 'no value supplied' });
    }
    const { risk: r, driver } = noisyOr(channels, options);
    const details: SharedFileDetail[] = shared.map((file) => ({
      path: file.path,
      ...(file.rangesA !== undefined ? { rangesA: file.rangesA } : {}),
      ...(file.rangesB !== undefined ? { rangesB: file.rangesB } : {}),
      overlap: file.overlap,
      gap: file.gap,
    }));
    return {
      a: a.id,
      b: b.id,
      risk: r,
      distance: 1 - r,
      channels,
      driver,
      sharedFiles: details,
      ...(unknown.length > 0 ? { unknown: unknown.sort((x, y) => (x.channel < y.channel ? -1 : 1)) } : {}),
      ...(evidence.length > 0 ? { evidence: evidence.sort((x, y) => (x.channel < y.channel ? -1 : 1)) } : {}),
    };
  };

  const link = (i: number, j: number): Link => {
    const base = risk(i, j);
    const history = options.history[pairKey(base.a, base.b)] ?? [];
    const samples = options.now === undefined ? history : [...history, { at: options.now, risk: base.risk }];
    const rate = closureRate(samples);
    let level = levelOf(base.risk, options);
    // Block on evidence, warn on prediction: without a fact proving the collision an RA-level risk
    // is a Traffic Advisory (docs/decisions/blocking-rule.md). Evidence is an RA at any risk.
    const proven = (base.evidence?.length ?? 0) > 0;
    const predictedRA = options.blockOn === 'evidence' && level === 'RA' && !proven;
    if (predictedRA) level = 'TA';
    if (options.blockOn === 'evidence' && proven) level = 'RA';
    const escalated = level === 'clear' && shouldEscalate(base.risk, rate, options);
    if (escalated) level = 'TA';
    const resolution = level === 'RA' ? rightOfWay(prepared[i]!.agent, prepared[j]!.agent) : undefined;
    return {
      ...base,
      level,
      ...(predictedRA ? { predictedRA: true } : {}),
      ...(escalated ? { escalated: true } : {}),
      ...(rate !== null ? { closureRate: rate } : {}),
      ...(resolution ?? {}),
    };
  };

  const contact = (i: number, j: number, graph: boolean): boolean => {
    if (partners[i]!.has(j)) return true;
    if (graph && dependency !== undefined && dependency({ a: i, b: j, shared: [] }) > 0) return true;
    const supplied = external.get(pairKey(prepared[i]!.id, prepared[j]!.id));
    if (supplied === undefined) return false;
    for (const { value, evidence } of supplied.values()) if (value !== 0 || evidence !== undefined) return true;
    return false;
  };

  return {
    agents: prepared,
    risk,
    link,
    sharesPath: (i, j) => partners[i]!.has(j),
    contact,
    withExternal: (values) => assemble(parts, indexExternal(values)),
  };
}

/** Inverted index of paths (base and renamed) → agents: per agent, the agents it shares one with. */
function sharingPartners(agents: readonly PreparedAgent[]): Set<number>[] {
  const holders = new Map<string, number[]>();
  agents.forEach((agent, index) => {
    for (const key of agent.byKey.keys()) {
      const list = holders.get(key);
      if (list === undefined) holders.set(key, [index]);
      else list.push(index);
    }
  });
  const partners = agents.map(() => new Set<number>());
  for (const list of holders.values()) {
    if (list.length < 2) continue;
    for (const x of list) for (const y of list) if (x !== y) partners[x]!.add(y);
  }
  return partners;
}
