/**
 * The dataset's import graph (index form: `nodes` + edges `[i, j]` / `[i, j, 1]`, nodes[i] imports
 * nodes[j]) → the engine's `ImportGraph`. The engine ignores direction; type-only edges are kept
 * by default because a type import breaks the build just as well under `tsc`.
 */
import type { ImportGraph } from '../../src/engine/types.js';
import type { DataDepGraph } from './scenario-types.js';

export interface GraphOptions {
  readonly includeTypeOnly?: boolean;
}

export function toImportGraph(graph: DataDepGraph | null, options: GraphOptions = {}): ImportGraph {
  const adjacency: Record<string, string[]> = {};
  if (!graph) return { adjacency };
  const includeTypeOnly = options.includeTypeOnly ?? true;
  for (const edge of graph.edges) {
    const [i, j, typeOnly] = edge;
    if (!includeTypeOnly && typeOnly === 1) continue;
    const from = graph.nodes[i!];
    const to = graph.nodes[j!];
    if (from === undefined || to === undefined || from === to) continue;
    const targets = adjacency[from];
    if (targets) targets.push(to);
    else adjacency[from] = [to];
  }
  return { adjacency };
}

/** Undirected neighbour sets of the graph (for labels and features that need both directions). */
export function undirectedNeighbours(graph: ImportGraph): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const link = (x: string, y: string): void => {
    let set = out.get(x);
    if (!set) {
      set = new Set();
      out.set(x, set);
    }
    set.add(y);
  };
  for (const [from, targets] of Object.entries(graph.adjacency)) {
    for (const to of targets) {
      link(from, to);
      link(to, from);
    }
  }
  return out;
}
