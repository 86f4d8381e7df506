import { describe, expect, it } from 'vitest';
import { REFERENCE_OPTIONS } from './reference-options.js';
import { DEFAULTS, collisionRisk, noisyOr, recencyWeight, treeDistance, type Agent, type ImportGraph } from '../../../src/index.js';

const HOUR = 3_600_000;
const empty: ImportGraph = { adjacency: {} };
const agent = (id: string, files: Agent['files'], extra: Partial<Agent> = {}): Agent => ({ id, files, ...extra });
const only = (channel: string) => ({ ...REFERENCE_OPTIONS, channels: [channel] });

describe('recency weight (eq. 1)', () => {
  const options = { now: 100 * HOUR, halfLifeMs: 24 * HOUR, recencyFloor: 0.15 };
  it('decays from 1 toward the floor with the half-life', () => {
    expect(recencyWeight(100 * HOUR, options)).toBe(1);
    expect(recencyWeight(76 * HOUR, options)).toBeCloseTo(0.15 + 0.85 * 0.5, 12); // one half-life: 0.575
    expect(recencyWeight(52 * HOUR, options)).toBeCloseTo(0.15 + 0.85 * 0.25, 12); // two: 0.3625
    expect(recencyWeight(-1e15, options)).toBeCloseTo(0.15, 12);
  });
  it('treats edits from the future as fresh and applies nothing without a clock', () => {
    expect(recencyWeight(200 * HOUR, options)).toBe(1);
    expect(recencyWeight(0, { ...options, now: undefined })).toBe(1);
  });
  it('lets an explicit weight win and feeds the overlap channel w^a · w^b', () => {
    const a = agent('a', [{ path: 'x.ts', lastEditedAt: 76 * HOUR }]);
    const b = agent('b', [{ path: 'x.ts', weight: 0.5, lastEditedAt: 100 * HOUR }]);
    expect(collisionRisk(a, b, empty, { ...only('overlap'), now: 100 * HOUR }).channels.overlap).toBeCloseTo(0.575 * 0.5, 12);
    expect(collisionRisk(a, b, empty, only('overlap')).channels.overlap).toBe(0.5); // no now: w = 1
  });
});

describe('overlap channel (eq. 3)', () => {
  it('is the overlap coefficient of the shared file, 1 for whole-file edits, 0 without a shared file', () => {
    const a = agent('a', [
      { path: 'x.ts', ranges: [[1, 10]] },
      { path: 'y.ts', ranges: [[1, 1]] },
    ]);
    const b = agent('b', [{ path: 'x.ts', ranges: [[8, 13]] }]);
    const c = agent('c', [{ path: 'x.ts' }]);
    const d = agent('d', [{ path: 'z.ts' }]);
    const opts = { adjacency: false, ...only('overlap') };
    expect(collisionRisk(a, b, empty, opts).channels.overlap).toBe(0.5);
    expect(collisionRisk(a, c, empty, opts).channels.overlap).toBe(1);
    expect(collisionRisk(a, d, empty, opts).channels.overlap).toBe(0);
  });
  it('counts touching hunks as a collision when adjacency is on', () => {
    const a = agent('a', [{ path: 'x.ts', ranges: [[1, 3]] }]);
    const b = agent('b', [{ path: 'x.ts', ranges: [[4, 4]] }]);
    expect(collisionRisk(a, b, empty, { adjacency: true, ...only('overlap') }).channels.overlap).toBe(1);
    expect(collisionRisk(a, b, empty, { adjacency: false, ...only('overlap') }).channels.overlap).toBe(0);
  });
  it("matches a rename's new path", () => {
    const a = agent('a', [{ path: 'old.ts', newPath: 'new.ts', ranges: [[5, 6]] }]);
    const b = agent('b', [{ path: 'new.ts', ranges: [[6, 9]] }]);
    const risk = collisionRisk(a, b, empty, { adjacency: false, ...only('overlap') });
    expect(risk.channels.overlap).toBe(0.5);
    expect(risk.sharedFiles).toEqual([{ path: 'old.ts', rangesA: [[5, 6]], rangesB: [[6, 9]], overlap: 0.5, gap: 0 }]);
  });
  it('scores intent files as whole-file entries with intentWeight and keeps the stronger reading', () => {
    const a = agent('a', [{ path: 'x.ts', ranges: [[1, 2]] }], { intent: ['x.ts', 'y.ts'] });
    const b = agent('b', [
      { path: 'x.ts', ranges: [[50, 60]] },
      { path: 'y.ts', ranges: [[1, 1]] },
    ]);
    const risk = collisionRisk(a, b, empty, { intentWeight: 0.6, ...only('overlap') });
    expect(risk.channels.overlap).toBeCloseTo(0.6, 12); // intent reading 0.6 · 1 · 1 beats the disjoint edit
    const strong = agent('s', [{ path: 'x.ts', ranges: [[55, 56]] }], { intent: ['x.ts'] });
    expect(collisionRisk(strong, b, empty, { intentWeight: 0.6, ...only('overlap') }).channels.overlap).toBe(1);
  });
});

describe('proximity channel', () => {
  it('is exp(−gap / proximityLines) for the nearest ranges of a shared file', () => {
    const a = agent('a', [{ path: 'x.ts', ranges: [[1, 10]] }]);
    const b = agent('b', [{ path: 'x.ts', ranges: [[61, 70]] }]); // lines 11..60 between: gap 50
    expect(collisionRisk(a, b, empty, { proximityLines: 50, ...only('proximity') }).channels.proximity).toBeCloseTo(Math.exp(-1), 12);
    expect(collisionRisk(a, agent('c', [{ path: 'x.ts' }]), empty, only('proximity')).channels.proximity).toBe(1);
  });
});

describe('dependency channel (eq. 4–5)', () => {
  const graph: ImportGraph = {
    adjacency: { 'a.ts': ['common.ts'], 'b.ts': ['common.ts'], 'common.ts': ['deep.ts'], 'deep.ts': ['deeper.ts'] },
  };
  const on = (path: string, id = path): Agent => agent(id, [{ path }]);
  const dep = (x: Agent, y: Agent, options = {}): number => collisionRisk(x, y, graph, { ...only('dependency'), ...options }).channels.dependency!;
  it('couples a direct import at γ^0 = 1 in both directions', () => {
    expect(dep(on('a.ts'), on('common.ts'))).toBe(1);
    expect(dep(on('common.ts'), on('a.ts'))).toBe(1);
  });
  it('couples two files importing a common module at d = 2: γ', () => {
    expect(dep(on('a.ts'), on('b.ts'))).toBe(0.5);
    expect(dep(on('a.ts'), on('b.ts'), { gamma: 0.3 })).toBeCloseTo(0.3, 12);
  });
  it('decays as γ^(d−1) and stops at maxDepth and the cut-off', () => {
    expect(dep(on('a.ts'), on('deeper.ts'))).toBe(0.25); // d = 3
    expect(dep(on('a.ts'), on('deeper.ts'), { maxDepth: 2 })).toBe(0);
    expect(dep(on('a.ts'), on('deeper.ts'), { couplingCutoff: 0.3 })).toBe(0);
  });
  it('weights by w_f · w_g and ignores the same file and unknown files', () => {
    const a = agent('a', [{ path: 'a.ts', weight: 0.5 }]);
    const b = agent('b', [{ path: 'common.ts', weight: 0.8 }]);
    expect(dep(a, b)).toBeCloseTo(0.4, 12);
    expect(dep(on('a.ts', 'x'), on('a.ts', 'y'))).toBe(0); // same file: the overlap channel's job
    expect(dep(on('nowhere.ts'), on('a.ts'))).toBe(0);
  });
  it('does not count a file round trip as coupling', () => {
    // a.ts → common.ts → a.ts would be d = 2 from a.ts to itself; b edits a.ts only.
    const a = agent('a', [{ path: 'a.ts' }, { path: 'deeper.ts' }]);
    expect(dep(a, on('a.ts', 'b'))).toBe(0.25); // deeper.ts ↔ a.ts at d = 3, not the round trip
  });
});

describe('tree channel (eq. 6)', () => {
  it('computes treeDistance from the shared leading components', () => {
    expect(treeDistance('src/a.ts', 'src/a.ts')).toBe(0);
    expect(treeDistance('src/a.ts', 'src/b.ts')).toBe(0.5); // (1 + 1) / 4
    expect(treeDistance('src/x/a.ts', 'src/y/b.ts')).toBeCloseTo(4 / 6, 12);
    expect(treeDistance('src/a.ts', 'test/a.ts')).toBe(1);
  });
  it('scores r_tree = max w·w·(1 − treeDistance)', () => {
    const a = agent('a', [{ path: 'src/x/a.ts' }, { path: 'docs/z.md', weight: 0.9 }]);
    const b = agent('b', [{ path: 'src/y/b.ts' }, { path: 'docs/q.md', weight: 0.9 }]);
    // src pair: 1 − 4/6 = 1/3; docs pair: 0.81 · 0.5 = 0.405
    expect(collisionRisk(a, b, empty, only('tree')).channels.tree).toBeCloseTo(0.405, 12);
  });
});

describe('noisy-OR (eq. 2)', () => {
  it('combines weighted channels as 1 − Π(1 − ω r) and names the driver', () => {
    const reference = { ...DEFAULTS, ...REFERENCE_OPTIONS };
    const combined = noisyOr({ overlap: 0.5, dependency: 0.5, tree: 0.4 }, reference);
    // 1 − (1 − 0.5)(1 − 0.45)(1 − 0.1) = 1 − 0.5 · 0.55 · 0.9 = 0.7525
    expect(combined.risk).toBeCloseTo(0.7525, 12);
    expect(combined.driver).toBe('overlap');
    expect(noisyOr({ overlap: 0, tree: 0 }, reference)).toEqual({ risk: 0, driver: null });
    expect(noisyOr({ custom: 0.3 }, reference).risk).toBeCloseTo(0.3, 12); // unweighted channel: ω = 1
  });
  it('gives R and D = 1 − R for a pair', () => {
    const a = agent('a', [{ path: 'src/x.ts', ranges: [[1, 10]] }]);
    const b = agent('b', [{ path: 'src/x.ts', ranges: [[6, 25]] }]);
    const risk = collisionRisk(a, b, empty, { ...REFERENCE_OPTIONS, adjacency: false, channels: ['overlap', 'tree'] });
    // overlap 5/10 = 0.5, tree 1 (same file) · 0.25 → R = 1 − 0.5 · 0.75 = 0.625
    expect(risk.risk).toBeCloseTo(0.625, 12);
    expect(risk.distance).toBeCloseTo(0.375, 12);
  });
});

describe('breadth channel', () => {
  it('is 1 − exp(−√(n_a · n_b) / breadthFiles) over recency-weighted file counts, intent included', () => {
    const files = (prefix: string, n: number) => Array.from({ length: n }, (_, k) => ({ path: `${prefix}/f${k}.ts` }));
    const a = agent('a', files('a', 4));
    const b = agent('b', files('b', 9));
    const opts = { channels: ['breadth'], breadthFiles: 5 };
    expect(collisionRisk(a, b, empty, opts).channels.breadth).toBeCloseTo(1 - Math.exp(-6 / 5), 12);
    // One file each at weight 0.5 (explicit) and intent 0.8 (no edits): n = 0.5 and 0.8.
    const c = agent('c', [{ path: 'c.ts', weight: 0.5 }]);
    const d = agent('d', [], { intent: ['d.ts'] });
    expect(collisionRisk(c, d, empty, { ...opts, intentWeight: 0.8 }).channels.breadth).toBeCloseTo(1 - Math.exp(-Math.sqrt(0.4) / 5), 12);
    expect(collisionRisk(c, agent('e', []), empty, opts).channels.breadth).toBe(0);
  });
});
