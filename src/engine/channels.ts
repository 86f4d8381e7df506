import { DependencySearch } from './dependency-reach.js';
import type { GraphIndex } from './graph-index.js';
import type { PreparedAgent } from './prepare-agent.js';
import type { ResolvedOptions } from './resolve-options.js';
import type { SharedFileScore } from './shared-files.js';
import { treeProfile, treeScore, type TreeProfile } from './tree-proximity.js';

/** What every channel sees once per scan. */
export interface ScanContext {
  readonly agents: readonly PreparedAgent[];
  readonly graph: GraphIndex;
  readonly options: ResolvedOptions;
}

/** What every channel sees per pair (agents by index into ScanContext.agents). */
export interface PairContext {
  readonly a: number;
  readonly b: number;
  readonly shared: readonly SharedFileScore[];
}

/**
 * A channel prepares whatever it caches for the scan, then scores pairs with r in [0, 1].
 * Adding a channel = adding one entry to CHANNELS (and a weight); the noisy-OR takes the rest.
 */
export interface ChannelDefinition {
  readonly name: string;
  prepare(scan: ScanContext): (pair: PairContext) => number;
}

const overlap: ChannelDefinition = {
  name: 'overlap',
  prepare: () => (pair) => Math.max(0, ...pair.shared.map((file) => file.overlapScore)),
};

const proximity: ChannelDefinition = {
  name: 'proximity',
  prepare: () => (pair) => Math.max(0, ...pair.shared.map((file) => file.proximityScore)),
};

/**
 * r_dep = max over f ∈ a, g ∈ b, f ≠ g of w_f · w_g · γ^(d(f,g)−1). Each agent's reach map is
 * computed once (lazily) and cached for the scan. The pair takes the max of a→b and b→a lookups,
 * which makes the cut-off symmetric: a pair counts when max(w_f, w_g) · γ^(d−1) ≥ couplingCutoff.
 */
const dependency: ChannelDefinition = {
  name: 'dependency',
  prepare: ({ agents, graph, options }) => {
    const slotOf = new Int32Array(graph.names.length).fill(-1);
    let slots = 0;
    const sources = agents.map((agent) => {
      const map = new Map<number, number>();
      for (const [key, weight] of agent.weightByKey) {
        const id = graph.ids.get(key);
        if (id === undefined) continue; // not in the graph: no edges, no coupling
        map.set(id, Math.max(map.get(id) ?? 0, weight));
        if (slotOf[id] === -1) slotOf[id] = slots++;
      }
      return map;
    });
    // One search (graph-sized buffers) for the whole scan; each agent's reach is kept sparse (the
    // query slots it reached), so a thousand agents do not hold a thousand slot-sized arrays.
    const search = new DependencySearch(graph, slotOf, slots, options);
    const reach: (Map<number, number> | undefined)[] = [];
    const reachOf = (i: number): Map<number, number> => (reach[i] ??= sparse(search.reach(sources[i]!)));
    const lookup = (from: number, to: number): number => {
      const target = sources[to]!;
      if (target.size === 0 || sources[from]!.size === 0) return 0;
      const best = reachOf(from);
      let value = 0;
      for (const [id, weight] of target) value = Math.max(value, (best.get(slotOf[id]!) ?? 0) * weight);
      return value;
    };
    return (pair) => Math.min(1, Math.max(lookup(pair.a, pair.b), lookup(pair.b, pair.a)));
  },
};

/**
 * Breadth: how much work both sides have in flight, r = 1 − exp(−√(n_a · n_b) / breadthFiles),
 * n = the agent's recency-weighted number of files (intent entries included at their weight).
 * Not a collision by itself (its weight stays below τ_TA); on real merge history it is the signal
 * the per-file channels miss: wide lines of work collide more, and sooner (calibration.md).
 */
const breadth: ChannelDefinition = {
  name: 'breadth',
  prepare: ({ agents, options }) => {
    const size = agents.map((agent) => agent.entries.reduce((sum, entry) => sum + entry.weight, 0));
    return (pair) => breadthScore(size[pair.a]!, size[pair.b]!, options.breadthFiles);
  },
};

function sparse(best: Float64Array): Map<number, number> {
  const map = new Map<number, number>();
  for (let slot = 0; slot < best.length; slot++) if (best[slot]! > 0) map.set(slot, best[slot]!);
  return map;
}

export function breadthScore(filesA: number, filesB: number, scale: number): number {
  if (!(scale > 0) || !(filesA > 0) || !(filesB > 0)) return 0;
  return 1 - Math.exp(-Math.sqrt(filesA * filesB) / scale);
}

const tree: ChannelDefinition = {
  name: 'tree',
  prepare: ({ agents }) => {
    const profiles: (TreeProfile | undefined)[] = [];
    const profileOf = (i: number): TreeProfile => (profiles[i] ??= treeProfile(agents[i]!.weightByKey));
    return (pair) => treeScore(profileOf(pair.a), profileOf(pair.b));
  },
};

/** The built-in channels, by name. External channels (options.external) need no entry here. */
export const CHANNELS: ReadonlyMap<string, ChannelDefinition> = new Map(
  [overlap, proximity, dependency, tree, breadth].map((channel) => [channel.name, channel]),
);
