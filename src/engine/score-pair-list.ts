import { pairKey } from './closure-rate.js';
import { layoutAgents, type Embedding } from './embed-agents.js';
import { EngineError } from './engine-error.js';
import { graphIndex } from './graph-index.js';
import type { ScanOptions } from './options.js';
import { createPairScorer, type PairScorer } from './pair-scorer.js';
import { resolveOptions } from './resolve-options.js';
import type { Agent, ImportGraph, Link } from './types.js';

export interface PairListOptions extends ScanOptions {
  /** Also lay the agents out for the radar (one point per agent id, its first occurrence). */
  readonly embed?: boolean;
}

export interface PairListResult {
  /** One link per listed pair, in the order of `pairs` (each link names `agents[i]` as `a`). */
  readonly links: Link[];
  /** Pairs with a path in common or graph contact; every other pair is clear by construction. */
  readonly contacts: number;
  readonly embedding: Embedding;
}

/**
 * Scores a given list of pairs through ONE scorer, for callers whose pairs each have their own
 * base (the CLI: an agent's working set depends on the merge-base with the other side), so an
 * agent id may appear several times in `agents`, once per distinct working set. Everything that
 * does not depend on the pair is shared: the graph index, one dependency search (each agent's
 * bounded reach computed once), the inverted index of paths. Same links as `advise` per pair.
 */
export function scorePairList(
  agents: readonly Agent[],
  pairs: readonly (readonly [number, number])[],
  graph: ImportGraph,
  options: PairListOptions = {},
): PairListResult {
  const resolved = resolveOptions(options);
  const scorer = createPairScorer(agents, graph, resolved);
  const seen = new Set<string>();
  let contacts = 0;
  const links = pairs.map(([i, j]) => {
    if (agents[i] === undefined || agents[j] === undefined || agents[i].id === agents[j].id)
      throw new EngineError('same-agent-pair', { id: agents[i]?.id ?? String(i) });
    const key = pairKey(agents[i].id, agents[j].id);
    if (seen.has(key)) throw new EngineError('duplicate-agent-id', { id: `${agents[i].id} / ${agents[j].id}` });
    seen.add(key);
    const link = scorer.link(i, j);
    if (link.sharedFiles.length > 0 || (link.channels.dependency ?? 0) > 0) contacts++;
    return link;
  });
  return { links, contacts, embedding: options.embed ? embed(scorer, links, graph, resolved.embeddingPull) : { positions: {}, fileCoordinates: {} } };
}

/**
 * Radar layout: one point per id (its first working set). Listed pairs keep their scored distance;
 * pairs nobody listed (peer × peer in a hook's check) are scored by the same scorer, as
 * `embedAgents` would.
 */
function embed(scorer: PairScorer, links: readonly Link[], graph: ImportGraph, pull: number): Embedding {
  const index: number[] = [];
  const first = new Map<string, number>();
  scorer.agents.forEach((agent, i) => {
    if (first.has(agent.id)) return;
    first.set(agent.id, index.length);
    index.push(i);
  });
  const n = index.length;
  if (n === 0) return { positions: {}, fileCoordinates: {} };
  const distances = new Float64Array(n * n).fill(-1);
  for (let i = 0; i < n; i++) distances[i * n + i] = 0;
  for (const link of links) {
    const x = first.get(link.a)!;
    const y = first.get(link.b)!;
    distances[x * n + y] = link.distance;
    distances[y * n + x] = link.distance;
  }
  for (let x = 0; x < n; x++) {
    for (let y = x + 1; y < n; y++) {
      if (distances[x * n + y]! >= 0) continue;
      const d = scorer.risk(index[x]!, index[y]!).distance;
      distances[x * n + y] = d;
      distances[y * n + x] = d;
    }
  }
  return layoutAgents(
    index.map((i) => scorer.agents[i]!),
    graphIndex(graph),
    distances,
    pull,
  );
}
