import type { ImportGraph } from './types.js';

/**
 * The import graph as an undirected compressed adjacency (CSR): node ids, and for node i its
 * neighbours neighbours[offsets[i] .. offsets[i + 1]). Direction is dropped on purpose: an edit
 * breaks importers and importees alike, and two files importing a common module are coupled.
 * Duplicate edges and self-imports are removed.
 */
export interface GraphIndex {
  readonly ids: ReadonlyMap<string, number>;
  readonly names: readonly string[];
  readonly offsets: Int32Array;
  readonly neighbours: Int32Array;
}

// Built once per graph object and reused by every scan and pair call on it (graphs are read-only).
const cache = new WeakMap<ImportGraph, GraphIndex>();

export function graphIndex(graph: ImportGraph): GraphIndex {
  let index = cache.get(graph);
  if (index === undefined) {
    index = buildGraphIndex(graph);
    cache.set(graph, index);
  }
  return index;
}

export function buildGraphIndex(graph: ImportGraph): GraphIndex {
  const ids = new Map<string, number>();
  const names: string[] = [];
  const idOf = (name: string): number => {
    let id = ids.get(name);
    if (id === undefined) {
      id = names.length;
      ids.set(name, id);
      names.push(name);
    }
    return id;
  };
  const from: number[] = [];
  const to: number[] = [];
  for (const [file, imports] of Object.entries(graph.adjacency)) {
    const source = idOf(file);
    for (const target of imports ?? []) {
      const t = idOf(target);
      if (t === source) continue;
      from.push(source);
      to.push(t);
    }
  }
  const n = names.length;
  const degree = new Int32Array(n + 1);
  for (let e = 0; e < from.length; e++) {
    degree[from[e]!]!++;
    degree[to[e]!]!++;
  }
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i]! + degree[i]!;
  const fill = offsets.slice(0, n);
  const raw = new Int32Array(offsets[n]!);
  for (let e = 0; e < from.length; e++) {
    raw[fill[from[e]!]!++] = to[e]!;
    raw[fill[to[e]!]!++] = from[e]!;
  }
  return dedupe(ids, names, offsets, raw);
}

/** Sorts each neighbour list and drops repeats (a ⇄ b listed in both directions, or twice). */
function dedupe(ids: Map<string, number>, names: string[], offsets: Int32Array, raw: Int32Array): GraphIndex {
  const n = names.length;
  const compactOffsets = new Int32Array(n + 1);
  const neighbours = new Int32Array(raw.length);
  let write = 0;
  for (let i = 0; i < n; i++) {
    const list = raw.subarray(offsets[i]!, offsets[i + 1]!).sort();
    for (let k = 0; k < list.length; k++) {
      if (k === 0 || list[k] !== list[k - 1]) neighbours[write++] = list[k]!;
    }
    compactOffsets[i + 1] = write;
  }
  return { ids, names, offsets: compactOffsets, neighbours: neighbours.slice(0, write) };
}
