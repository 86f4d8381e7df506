import { describe, expect, it } from 'vitest';
import { advise, scorePairList, type Agent, type ExternalChannelValue } from '../../../src/index.js';
import { generateAgents, generateRepo, int, rng } from './generate-airspace.js';

const NOW = 1_000_000_000;

describe('scorePairList: one shared scorer for a list of pairs', () => {
  it('gives exactly the link advise gives pair by pair, with repeated ids (one working set per base)', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = rng(seed);
      const { files, graph } = generateRepo(random, int(random, 20, 120));
      const pool = generateAgents(random, files, int(random, 3, 9), int(random, 1, 6), NOW);
      // Each agent also gets a second working set (another base): same id, other files.
      const other = generateAgents(random, files, pool.length, int(random, 1, 6), NOW).map((agent, i) => ({ ...agent, id: pool[i]!.id }));
      const agents: Agent[] = [...pool, ...other];
      const pairs: [number, number][] = [];
      const used = new Set<string>();
      for (let i = 0; i < pool.length; i++) {
        for (let j = i + 1; j < pool.length; j++) {
          // Half the pairs take each side's second working set, as pairs with another merge-base do.
          const [x, y] = random() < 0.5 ? [i, j] : [i + pool.length, j + pool.length];
          pairs.push([x, y]);
          used.add(`${x} ${y}`);
        }
      }
      const external: ExternalChannelValue[] = pairs
        .filter(() => random() < 0.3)
        .map(([x, y]) => ({
          a: agents[x]!.id,
          b: agents[y]!.id,
          channel: 'merge',
          value: random() < 0.5 ? 1 : 0,
          ...(random() < 0.5 ? { evidence: 'conflict' } : {}),
        }));
      const options = { now: NOW, external, channels: ['overlap', 'proximity', 'dependency', 'tree', 'breadth'] };
      const { links, contacts } = scorePairList(agents, pairs, graph, options);
      expect(links).toHaveLength(pairs.length);
      let expectedContacts = 0;
      pairs.forEach(([x, y], k) => {
        const alone = advise(agents[x]!, agents[y]!, graph, options);
        expect(links[k]).toEqual(alone);
        if (alone.sharedFiles.length > 0 || (alone.channels.dependency ?? 0) > 0) expectedContacts++;
      });
      expect(contacts).toBe(expectedContacts);
    }
  });

  it('rejects a pair of one agent with itself and a pair listed twice', () => {
    const a: Agent = { id: 'a', files: [{ path: 'x.ts' }] };
    const b: Agent = { id: 'b', files: [{ path: 'x.ts' }] };
    expect(() => scorePairList([a, { ...a }], [[0, 1]], { adjacency: {} })).toThrow(/a/);
    expect(() =>
      scorePairList(
        [a, b],
        [
          [0, 1],
          [1, 0],
        ],
        { adjacency: {} },
      ),
    ).toThrow(/b/);
  });

  it('lays out one point per id when asked, none otherwise', () => {
    const a: Agent = { id: 'a', files: [{ path: 'x.ts', ranges: [[1, 5]] }] };
    const b: Agent = { id: 'b', files: [{ path: 'x.ts', ranges: [[3, 9]] }] };
    const c: Agent = { id: 'c', files: [{ path: 'y.ts' }] };
    const graph = { adjacency: { 'x.ts': ['y.ts'] } };
    const laid = scorePairList(
      [a, b, c],
      [
        [0, 1],
        [0, 2],
      ],
      graph,
      { embed: true },
    );
    expect(Object.keys(laid.embedding.positions).sort()).toEqual(['a', 'b', 'c']);
    expect(
      scorePairList(
        [a, b, c],
        [
          [0, 1],
          [0, 2],
        ],
        graph,
      ).embedding.positions,
    ).toEqual({});
  });
});
