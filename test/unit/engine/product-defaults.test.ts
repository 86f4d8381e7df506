import { describe, expect, it } from 'vitest';
import { DEFAULTS, advise, type Agent, type ImportGraph } from '../../../src/index.js';

// The calibrated DEFAULTS must keep the product sensible (docs/decisions/calibration.md, "Product
// constraints"). Realistic agents: a few files each, `now` = the last edit, no options passed.
const NOW = Date.UTC(2026, 10, 30, 9, 0, 0);
const MIN = 60_000;
const empty: ImportGraph = { adjacency: {} };
const opts = { now: NOW };

/** An agent with a couple of unrelated files of its own besides the ones under test. */
function agent(id: string, files: Agent['files'], intent?: string[]): Agent {
  return { id, files, ...(intent ? { intent } : {}), committedWork: 0 };
}
const edit = (path: string, ranges?: [number, number][], ageMin = 0) => ({
  path,
  ...(ranges ? { ranges } : {}),
  lastEditedAt: NOW - ageMin * MIN,
});

describe('product constraints on DEFAULTS', () => {
  it('(a) two agents editing the same recent lines of one file → RA-level risk: a predicted RA (TA) until evidence, RA when blocking on risk', () => {
    const a = agent('alice', [edit('src/router/route.ts', [[40, 60]]), edit('src/app.ts', [[10, 12]], 30)]);
    const b = agent('bob', [edit('src/router/route.ts', [[55, 70]]), edit('test/route.test.ts', [[1, 40]], 5)]);
    const link = advise(a, b, empty, opts);
    expect(link.risk).toBeGreaterThanOrEqual(DEFAULTS.tauRA);
    expect([link.level, link.predictedRA]).toEqual(['TA', true]);
    expect(advise(a, b, empty, { ...opts, blockOn: 'risk' }).level).toBe('RA');
    expect(['overlap', 'proximity']).toContain(link.driver);
    // The minimal case: one file each, one line each, same line.
    const one = advise(agent('a', [edit('lib/x.js', [[7, 7]])]), agent('b', [edit('lib/x.js', [[7, 7]])]), empty, { ...opts, blockOn: 'risk' });
    expect(one.level).toBe('RA');
  });

  it('(b) touching or adjacent hunks in one file → at least TA', () => {
    const a = agent('alice', [edit('lib/response.js', [[100, 120]])]);
    const touching = agent('bob', [edit('lib/response.js', [[121, 130]])]);
    const insertionNext = agent('carol', [edit('lib/response.js', [[121, 120]])]); // insertion point after line 120
    for (const b of [touching, insertionNext]) expect(advise(a, b, empty, opts).level).not.toBe('clear');
  });

  it('(c) a declared intent against lines edited in that file → TA, never RA, never clear', () => {
    const small = [
      [agent('alice', [], ['lib/router/index.js']), agent('bob', [edit('lib/router/index.js', [[200, 230]])])],
      [
        agent('alice', [edit('lib/utils.js', [[5, 9]]), edit('lib/view.js', [[30, 31]])], ['lib/router/index.js']),
        agent('bob', [edit('lib/router/index.js', [[1, 3]]), edit('test/app.router.js', [[400, 420]])]),
      ],
    ] as const;
    for (const [a, b] of small) expect(advise(a, b, empty, opts).level).toBe('TA');
    // Wide lines of work on both sides raise breadth, yet a declaration alone still never resolves.
    const wide = (id: string, n: number) => Array.from({ length: n }, (_, k) => edit(`${id}/f${k}.js`, [[1, 5]]));
    const a = agent('alice', wide('pkg-a', 40), ['lib/router/index.js']);
    const b = agent('bob', [...wide('pkg-b', 40), edit('lib/router/index.js', [[10, 20]])]);
    expect(advise(a, b, empty, opts).level).toBe('TA');
  });

  it('(d) a direct import between the two sides and nothing shared → clear or TA, never RA', () => {
    const graph: ImportGraph = { adjacency: { 'src/api/client.ts': ['src/api/types.ts'], 'src/api/types.ts': [] } };
    const a = agent('alice', [edit('src/api/client.ts', [[10, 40]])]);
    const b = agent('bob', [edit('src/api/types.ts', [[1, 80]])]);
    const link = advise(a, b, graph, opts);
    expect(link.channels.dependency).toBe(1);
    expect(link.level).not.toBe('RA');
    // Many importing files on each side: still never an RA.
    const hub: ImportGraph = { adjacency: Object.fromEntries(Array.from({ length: 30 }, (_, k) => [`src/m${k}.ts`, ['src/core.ts']])) };
    const many = agent(
      'carol',
      Array.from({ length: 30 }, (_, k) => edit(`src/m${k}.ts`, [[1, 2]])),
    );
    expect(advise(many, agent('dave', [edit('src/core.ts', [[3, 4]])]), hub, opts).level).not.toBe('RA');
  });

  it('(e) edits in different files of different directories, no imports → clear', () => {
    const a = agent('alice', [edit('src/server/http.ts', [[1, 50]]), edit('src/server/tls.ts', [[5, 9]], 20)]);
    const b = agent('bob', [edit('docs/guide.md', [[3, 30]]), edit('scripts/release.sh', [[1, 4]], 60)]);
    expect(advise(a, b, empty, opts).level).toBe('clear');
    const wide = (dir: string) => Array.from({ length: 25 }, (_, k) => edit(`${dir}/f${k}.ts`, [[1, 9]]));
    expect(advise(agent('c', wide('packages/a')), agent('d', wide('packages/b')), empty, opts).level).toBe('clear');
  });

  it('(f) an external merge value of 1 with evidence (git merge-tree conflict) → RA; without evidence a TA', () => {
    const a = agent('alice', [edit('src/a.ts', [[1, 2]])]);
    const b = agent('bob', [edit('lib/b.ts', [[1, 2]])]);
    const conflict = { a: 'alice', b: 'bob', channel: 'merge', value: 1 };
    const link = advise(a, b, empty, { ...opts, channels: [...DEFAULTS.channels, 'merge'], external: [{ ...conflict, evidence: 'conflict in lib/x.js' }] });
    expect(link.level).toBe('RA');
    expect(link.evidence).toEqual([{ channel: 'merge', text: 'conflict in lib/x.js' }]);
    const unproven = advise(a, b, empty, { ...opts, channels: [...DEFAULTS.channels, 'merge'], external: [conflict] });
    expect([unproven.level, unproven.predictedRA]).toEqual(['TA', true]);
    expect(link.driver).toBe('merge');
  });

  it('leaves a usable TA band: near-but-not-touching edits warn before they collide', () => {
    expect(DEFAULTS.tauRA - DEFAULTS.tauTA).toBeGreaterThanOrEqual(0.1);
    const a = agent('alice', [edit('lib/application.js', [[100, 120]])]);
    const near = agent('bob', [edit('lib/application.js', [[125, 130]])]); // 4 lines apart
    const far = agent('carol', [edit('lib/application.js', [[900, 910]])]);
    expect(advise(a, near, empty, opts).level).toBe('TA');
    expect(advise(a, far, empty, opts).level).toBe('clear');
  });
});
