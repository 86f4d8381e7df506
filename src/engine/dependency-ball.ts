import type { GraphIndex } from './graph-index.js';
import type { ReachOptions } from './dependency-reach.js';

/**
 * How many hops apart two files can be and still be coupled by the dependency channel
 * (src/engine/channels.ts): a pair counts when max(w_f, w_g) · γ^(d−1) ≥ couplingCutoff and
 * d ≤ maxDepth, and every file weight is at most 1, so no pair farther than this counts.
 */
export function dependencyHops(options: ReachOptions): number {
  let hops = 0;
  for (let d = 1; d <= options.maxDepth; d++) {
    if (!(options.gamma ** (d - 1) >= options.couplingCutoff)) break;
    hops = d;
  }
  return hops;
}

/**
 * The files within `hops` steps of any of `sources` on the undirected import graph (importers and
 * importees alike, as the dependency search walks it), the sources themselves excluded. Files not
 * in the graph have no edges and reach nothing.
 */
export function filesWithinHops(graph: GraphIndex, sources: Iterable<string>, hops: number): string[] {
  const { ids, names, offsets, neighbours } = graph;
  const distance = new Int32Array(names.length).fill(-1);
  let frontier: number[] = [];
  for (const source of sources) {
    const id = ids.get(source);
    if (id === undefined || distance[id] === 0) continue;
    distance[id] = 0;
    frontier.push(id);
  }
  const reached: string[] = [];
  for (let depth = 1; depth <= hops && frontier.length > 0; depth++) {
    const next: number[] = [];
    for (const node of frontier) {
      for (let e = offsets[node]!, end = offsets[node + 1]!; e < end; e++) {
        const target = neighbours[e]!;
        if (distance[target] !== -1) continue;
        distance[target] = depth;
        reached.push(names[target]!);
        next.push(target);
      }
    }
    frontier = next;
  }
  return reached;
}
