import { pairKey } from './closure-rate.js';
import { layoutAgents } from './embed-agents.js';
import { EngineError } from './engine-error.js';
import { graphIndex } from './graph-index.js';
import type { ScanOptions } from './options.js';
import { createPairScorer } from './pair-scorer.js';
import { resolveOptions } from './resolve-options.js';
import type { Agent, ImportGraph, Link, ScanResult } from './types.js';

/**
 * The pure core (docs/decisions/engine-model.md, "Scan"): every pair scored once, links sorted by risk (ties by pair key),
 * advisories = the non-clear links, plus the 3D picture. No I/O, no clock: the same input and
 * options give the same result. Each link names the lower id as `a`.
 */
export function scanAirspace(agents: readonly Agent[], graph: ImportGraph, options?: ScanOptions): ScanResult {
  const seen = new Set<string>();
  for (const agent of agents) {
    if (seen.has(agent.id)) throw new EngineError('duplicate-agent-id', { id: agent.id });
    seen.add(agent.id);
  }
  const resolved = resolveOptions(options);
  const scorer = createPairScorer(agents, graph, resolved);
  const n = agents.length;
  const distances = new Float64Array(n * n);
  const links: Link[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const [x, y] = agents[i]!.id < agents[j]!.id ? [i, j] : [j, i];
      const link = scorer.link(x, y);
      distances[i * n + j] = link.distance;
      distances[j * n + i] = link.distance;
      links.push(link);
    }
  }
  const keys = new Map(links.map((link) => [link, pairKey(link.a, link.b)]));
  links.sort((p, q) => q.risk - p.risk || (keys.get(p)! < keys.get(q)! ? -1 : 1));
  const advisories = links.filter((link) => link.level !== 'clear');
  const { positions, fileCoordinates } = layoutAgents(scorer.agents, graphIndex(graph), distances, resolved.embeddingPull);
  return {
    advisories,
    links,
    positions,
    fileCoordinates,
    counts: {
      agents: n,
      pairs: links.length,
      clear: links.length - advisories.length,
      TA: advisories.filter((link) => link.level === 'TA').length,
      RA: advisories.filter((link) => link.level === 'RA').length,
    },
  };
}
