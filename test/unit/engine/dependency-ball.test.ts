import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../../src/engine/defaults.js';
import { dependencyHops, filesWithinHops } from '../../../src/engine/dependency-ball.js';
import { buildGraphIndex } from '../../../src/engine/graph-index.js';
import { CHANNELS } from '../../../src/engine/channels.js';
import type { PreparedAgent } from '../../../src/engine/prepare-agent.js';
import { resolveOptions } from '../../../src/engine/resolve-options.js';
import { rng } from './generate-airspace.js';

/**
 * The reach a beacon reader lists areas for (src/run/dependency-areas.ts) must contain every file
 * the dependency channel can couple to the work: checked against the channel itself on random graphs.
 */
describe('files within the dependency channel reach', () => {
  it('hops: maxDepth, or fewer when γ^(d−1) falls below the cut-off', () => {
    expect(dependencyHops(DEFAULTS)).toBe(4);
    expect(dependencyHops({ gamma: 0.1, maxDepth: 6, couplingCutoff: 0.01 })).toBe(3);
    expect(dependencyHops({ gamma: 0.5, maxDepth: 6, couplingCutoff: 2 })).toBe(0);
  });

  it('contains every file the dependency channel couples to the sources (200 random graphs)', () => {
    const random = rng(27);
    const options = resolveOptions({});
    const hops = dependencyHops(options);
    for (let round = 0; round < 200; round++) {
      const n = 5 + Math.floor(random() * 40);
      const names = Array.from({ length: n }, (_, i) => `p${i % 4}/f${i}.ts`);
      const adjacency: Record<string, string[]> = {};
      for (const name of names) adjacency[name] = names.filter(() => random() < 1.5 / n);
      const graph = buildGraphIndex({ adjacency });
      const sources = names.filter(() => random() < 0.1);
      const ball = new Set(filesWithinHops(graph, sources, hops));
      for (const source of sources) expect(ball.has(source)).toBe(false);
      // The channel on (sources, one other file): positive exactly when that file is coupled.
      const agent = (files: readonly string[]): PreparedAgent => ({ weightByKey: new Map(files.map((f) => [f, 1])), entries: [] }) as unknown as PreparedAgent;
      const others = names.filter((name) => !sources.includes(name));
      const score = CHANNELS.get('dependency')!.prepare({ agents: [agent(sources), ...others.map((o) => agent([o]))], graph, options });
      others.forEach((other, i) => {
        const coupled = score({ a: 0, b: i + 1, shared: [] }) > 0;
        if (coupled) expect(ball.has(other), `${other} coupled but not within ${hops} hops`).toBe(true);
      });
    }
  });
});
