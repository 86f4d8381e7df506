import { describe, expect, it } from 'vitest';
import { collisionRisk, couplingTable, scanAirspace, treeDistance, type Agent, type ImportGraph } from '../../../src/index.js';
import { int, pick, rng } from './generate-airspace.js';

/** The seed's naive algorithm: one bounded BFS per file pair on the undirected graph. */
function bfsDistance(neighbours: Map<string, Set<string>>, from: string, to: string, maxDepth: number): number {
  if (!neighbours.has(from) || !neighbours.has(to)) return Infinity;
  let frontier = [from];
  const seen = new Set([from]);
  for (let depth = 1; depth <= maxDepth; depth++) {
    const next: string[] = [];
    for (const node of frontier) {
      for (const n of neighbours.get(node)!) {
        if (n === to) return depth;
        if (!seen.has(n)) {
          seen.add(n);
          next.push(n);
        }
      }
    }
    frontier = next;
  }
  return Infinity;
}

function undirected(graph: ImportGraph): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  const add = (x: string, y: string): void => {
    if (!map.has(x)) map.set(x, new Set());
    if (x !== y) map.get(x)!.add(y);
  };
  for (const [file, imports] of Object.entries(graph.adjacency)) {
    add(file, file);
    for (const target of imports) {
      add(file, target);
      add(target, file);
    }
  }
  return map;
}

interface Params {
  gamma: number;
  maxDepth: number;
  couplingCutoff: number;
}

/** r_dep by brute force, with the engine's symmetric cut-off: max(w_f, w_g) · γ^(d−1) ≥ cutoff. */
function naiveDependency(a: Agent, b: Agent, graph: ImportGraph, p: Params): number {
  const neighbours = undirected(graph);
  const table = couplingTable(p.gamma, p.maxDepth);
  let best = 0;
  for (const f of a.files) {
    for (const g of b.files) {
      if (f.path === g.path) continue;
      const d = bfsDistance(neighbours, f.path, g.path, p.maxDepth);
      if (d === Infinity) continue;
      const wf = f.weight ?? 1;
      const wg = g.weight ?? 1;
      if (wf * table[d - 1]! >= p.couplingCutoff) best = Math.max(best, wf * table[d - 1]! * wg);
      if (wg * table[d - 1]! >= p.couplingCutoff) best = Math.max(best, wg * table[d - 1]! * wf);
    }
  }
  return best;
}

function naiveTree(a: Agent, b: Agent): number {
  let best = 0;
  for (const f of a.files) for (const g of b.files) best = Math.max(best, (f.weight ?? 1) * (g.weight ?? 1) * (1 - treeDistance(f.path, g.path)));
  return best;
}

function randomCase(seed: number): { graph: ImportGraph; agents: Agent[]; params: Params } {
  const random = rng(seed);
  const dirs = ['a', 'a/b', 'a/b/c', 'd', 'd/e', 'f'];
  const nodes = Array.from({ length: int(random, 5, 60) }, (_, i) => `${pick(random, dirs)}/n${i}.ts`);
  const adjacency: Record<string, string[]> = {};
  for (const node of nodes) adjacency[node] = Array.from({ length: int(random, 0, 3) }, () => pick(random, nodes));
  const files = [...nodes, 'outside/x.ts', 'outside/y.ts'];
  const weights = [1, 0.8, 0.5, 0.3, 0.15, 0.05];
  const agents = Array.from({ length: int(random, 2, 6) }, (_, i) => {
    const chosen = new Set(Array.from({ length: int(random, 1, 6) }, () => pick(random, files)));
    return { id: `ag${i}`, files: [...chosen].map((path) => ({ path, weight: pick(random, weights) })) };
  });
  const params = { gamma: pick(random, [0.5, 0.25, 0.7]), maxDepth: int(random, 1, 7), couplingCutoff: pick(random, [0, 0.01, 0.05, 0.2]) };
  return { graph: { adjacency }, agents, params };
}

describe('the engine agrees exactly with brute force', () => {
  it('top-2 distinct-source search = a BFS per file pair, on 300 random graphs', () => {
    let compared = 0;
    let coupled = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const { graph, agents, params } = randomCase(seed);
      const scan = scanAirspace(agents, graph, { ...params, channels: ['dependency'] });
      for (const link of scan.links) {
        const a = agents.find((x) => x.id === link.a)!;
        const b = agents.find((x) => x.id === link.b)!;
        const expected = naiveDependency(a, b, graph, params);
        expect(link.channels.dependency, `seed ${seed} ${link.a}-${link.b}`).toBe(expected);
        expect(collisionRisk(b, a, graph, { ...params, channels: ['dependency'] }).channels.dependency).toBe(expected);
        compared++;
        if (expected > 0) coupled++;
      }
    }
    expect(compared).toBeGreaterThan(1000);
    expect(coupled).toBeGreaterThan(compared / 4); // the cases are not trivially zero
  });

  it('prefix-walk tree score = max over all file pairs, on 300 random cases', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const { graph, agents } = randomCase(seed);
      for (const link of scanAirspace(agents, graph, { channels: ['tree'] }).links) {
        const a = agents.find((x) => x.id === link.a)!;
        const b = agents.find((x) => x.id === link.b)!;
        expect(link.channels.tree).toBeCloseTo(naiveTree(a, b), 12);
      }
    }
  });
});
