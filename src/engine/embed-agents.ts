import { graphIndex, type GraphIndex } from './graph-index.js';
import type { ScanOptions } from './options.js';
import { createPairScorer } from './pair-scorer.js';
import { fileCoordinates, hashString, lineOffset, unitVector } from './path-coordinates.js';
import type { PreparedAgent } from './prepare-agent.js';
import { resolveOptions } from './resolve-options.js';
import { sparseStress, type SparseTargets } from './sparse-stress.js';
import { stressMajorization } from './stress-majorization.js';
import { totalLength } from './intervals.js';
import type { Agent, ImportGraph, Vec3 } from './types.js';

export interface Embedding {
  readonly positions: Readonly<Record<string, Vec3>>;
  readonly fileCoordinates: Readonly<Record<string, Vec3>>;
}

/** Length-weighted mean line of an entry's ranges (null for a whole-file entry). */
function meanLine(agent: PreparedAgent, index: number): number | null {
  const slots = agent.entries[index]!.readings.find((r) => r.slots !== null)?.slots;
  if (!slots || slots.length === 0) return null;
  const length = totalLength(slots);
  let sum = 0;
  for (const [lo, hi] of slots) sum += ((lo + hi) / 2) * (hi - lo);
  return length > 0 ? sum / length : null;
}

/** Recency-weighted centroid of an agent's entries (file coordinate + in-file line offset). */
function centroid(agent: PreparedAgent, files: ReadonlyMap<string, Vec3>): Vec3 {
  const sum = [0, 0, 0];
  let weight = 0;
  agent.entries.forEach((entry, index) => {
    const file = files.get(entry.path)!;
    const offset = lineOffset(entry.path, meanLine(agent, index));
    const w = entry.weight > 0 ? entry.weight : 1e-9;
    for (let d = 0; d < 3; d++) sum[d]! += w * (file[d]! + offset[d]!);
    weight += w;
  });
  // A tiny per-agent nudge: agents on the exact same point could never be separated by SMACOF.
  const nudge = unitVector(hashString(`agent\u0000${agent.id}`));
  const at = (d: number): number => (weight > 0 ? sum[d]! / weight : 0) + nudge[d]! * 1e-6;
  return [at(0), at(1), at(2)];
}

/**
 * Files get path coordinates pulled toward their import neighbours; agents start at their
 * centroids and are then refined by stress majorization toward target distances D = 1 − R
 * (row-major n × n), because a centroid alone cannot follow a max-based risk.
 */
export function layoutAgents(agents: readonly PreparedAgent[], graph: GraphIndex, distances: Float64Array, pull: number): Embedding {
  return layout(agents, graph, pull, (start) => stressMajorization(start, distances));
}

/**
 * The same layout with target distances for some pairs only (the pairs a contact-only scan
 * scored): O(n + pairs) memory instead of n × n, for airspaces of hundreds of agents or more.
 */
export function layoutAgentsSparse(agents: readonly PreparedAgent[], graph: GraphIndex, targets: SparseTargets, pull: number): Embedding {
  return layout(agents, graph, pull, (start) => sparseStress(start, targets));
}

function layout(agents: readonly PreparedAgent[], graph: GraphIndex, pull: number, refine: (start: Vec3[]) => Vec3[]): Embedding {
  const keys = agents.flatMap((agent) => agent.entries.flatMap((entry) => entry.keys));
  const files = fileCoordinates(keys, graph, pull);
  const refined = refine(agents.map((agent) => centroid(agent, files)));
  const positions: Record<string, Vec3> = {};
  agents.forEach((agent, i) => {
    positions[agent.id] = refined[i]!;
  });
  return { positions, fileCoordinates: Object.fromEntries(files) };
}

/** The embedding alone (scanAirspace returns the same thing as part of a scan). */
export function embedAgents(agents: readonly Agent[], graph: ImportGraph, options?: ScanOptions): Embedding {
  const resolved = resolveOptions(options);
  const scorer = createPairScorer(agents, graph, resolved);
  const n = agents.length;
  const distances = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const d = scorer.risk(i, j).distance;
      distances[i * n + j] = d;
      distances[j * n + i] = d;
    }
  }
  return layoutAgents(scorer.agents, graphIndex(graph), distances, resolved.embeddingPull);
}
