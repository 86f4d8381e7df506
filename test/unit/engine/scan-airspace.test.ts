import { describe, expect, it } from 'vitest';
import { EngineError, pairKey, scanAirspace, type Agent } from '../../../src/index.js';
import { generateAgents, generateRepo, rng } from './generate-airspace.js';

const graph = { adjacency: { 'src/api.ts': ['src/db.ts'], 'src/ui.ts': ['src/api.ts'] } };
const agents: Agent[] = [
  { id: 'ui', files: [{ path: 'src/ui.ts', ranges: [[5, 9]] }], committedWork: 1 },
  { id: 'api', files: [{ path: 'src/api.ts', ranges: [[1, 4]] }], committedWork: 3 },
  { id: 'api-2', files: [{ path: 'src/api.ts', ranges: [[3, 3]] }] },
  { id: 'docs', files: [{ path: 'README.md' }] },
];

describe('scanAirspace', () => {
  it('scores every pair once, sorted by risk, with advisories and counts', () => {
    const scan = scanAirspace(agents, graph, { blockOn: 'risk' });
    expect(scan.links).toHaveLength(6);
    for (let i = 1; i < scan.links.length; i++) expect(scan.links[i - 1]!.risk).toBeGreaterThanOrEqual(scan.links[i]!.risk);
    for (const link of scan.links) expect(link.a < link.b).toBe(true);
    const top = scan.links[0]!;
    // Overlapping lines: the closing-distance channel (proximity, ω 0.7) drives, overlap adds git's rule.
    expect([top.a, top.b, top.level, top.driver, top.hold, top.steer]).toEqual(['api', 'api-2', 'RA', 'proximity', 'api', 'api-2']);
    expect(scan.advisories.every((link) => link.level !== 'clear')).toBe(true);
    expect(scan.counts).toEqual({ agents: 4, pairs: 6, clear: 6 - scan.advisories.length, TA: scan.counts.TA, RA: scan.counts.RA });
    expect(scan.counts.TA + scan.counts.RA).toBe(scan.advisories.length);
    expect(Object.keys(scan.positions).sort()).toEqual(['api', 'api-2', 'docs', 'ui']);
    expect(Object.keys(scan.fileCoordinates)).toEqual(['README.md', 'src/api.ts', 'src/db.ts', 'src/ui.ts']);
    const docs = scan.links.filter((link) => link.a === 'docs' || link.b === 'docs');
    // Nothing shared, no import, no common folder: only the breadth prior, far below τ_TA.
    expect(docs.every((link) => link.level === 'clear' && link.channels.overlap === 0 && link.channels.dependency === 0 && link.channels.tree === 0)).toBe(
      true,
    );
    expect(docs.every((link) => link.risk < 0.1)).toBe(true);
  });

  it('is deterministic and independent of the order of the agents', () => {
    const random = rng(5);
    const { files, graph: g } = generateRepo(random, 120);
    const many = generateAgents(random, files, 15, 5);
    const first = scanAirspace(many, g, { now: 1_000_000_000 });
    expect(scanAirspace(many, g, { now: 1_000_000_000 })).toEqual(first);
    const reversed = scanAirspace([...many].reverse(), g, { now: 1_000_000_000 });
    expect(reversed.links.map((l) => [l.a, l.b, l.risk, l.level])).toEqual(first.links.map((l) => [l.a, l.b, l.risk, l.level]));
  });

  it('absorbs an external channel and reports uncomputed ones as unknown, never as clear', () => {
    const external = [
      { a: 'docs', b: 'ui', channel: 'merge', value: 1, evidence: 'conflict in README.md' },
      { a: 'ui', b: 'api', channel: 'merge', value: null, reason: 'merge-tree failed' },
    ];
    const scan = scanAirspace(agents, graph, { external });
    const byKey = new Map(scan.links.map((link) => [pairKey(link.a, link.b), link]));
    const docsUi = byKey.get(pairKey('docs', 'ui'))!;
    expect(docsUi.channels.merge).toBe(1);
    expect(docsUi.level).toBe('RA');
    expect(docsUi.driver).toBe('merge');
    expect(byKey.get(pairKey('api', 'ui'))!.unknown).toEqual([{ channel: 'merge', reason: 'merge-tree failed' }]);
    const requested = scanAirspace(agents, graph, { channels: ['overlap', 'merge'] });
    expect(requested.links.every((link) => link.unknown?.[0]?.channel === 'merge')).toBe(true);
  });

  it('refuses duplicate agent ids', () => {
    expect(() => scanAirspace([agents[0]!, agents[0]!], graph)).toThrow(EngineError);
  });
});
