import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areaKey } from '../../src/beacon/beacon-areas.js';
import { gitIn, remoteWithClones, removeDir, runCli, testEnv, writeFiles } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

/**
 * Issue 27, the cross-area blind spot (docs/decisions/beacon-areas.md, "Dependency areas"): a
 * beacon-only peer on another machine edits `packages/b/consumer.ts`, which imports
 * `packages/a/util.ts`, the file this agent changes. Its beacon stands only in area `packages/b`,
 * not one of this agent's own areas. With the import graph cached, the reader also lists the areas
 * within the dependency channel's reach of its work: the peer is read and scored through the
 * dependency channel. Without a graph it is not seen, and the fetch stage says so.
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `// line ${i + 1}`).join('\n')}\n`;
const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

interface Report {
  readonly links: { a: string; b: string; level: string; channels: Record<string, number> }[];
  readonly scanned: { peers: { beacons: number }; skipped: string[]; stages: { stage: string; detail?: string }[] };
}

describe('beacons in the areas the work depends on', () => {
  let me: string;
  beforeAll(() => {
    const setup = remoteWithClones(
      {
        'packages/a/util.ts': `export function util(n: number): number {\n  return n + 1;\n}\n${numbered(30)}`,
        'packages/b/consumer.ts': `import { util } from '../a/util.js';\n\nexport const value = util(1);\n${numbered(30)}`,
        'packages/c/alone.ts': `export const alone = 1;\n${numbered(30)}`,
      },
      2,
    );
    roots.push(setup.root);
    const [mine, bob] = setup.clones as [string, string];
    me = mine;
    gitIn(bob, 'switch', '-q', '-c', 'bob/consumer');
    writeFiles(bob, { 'packages/b/consumer.ts': `import { util } from '../a/util.js';\n\nexport const value = util(2);\n${numbered(30)}` });
    const published = runCli(bob, ['beacon', 'publish']);
    expect(published.status, published.stderr).toBe(0);
    gitIn(me, 'switch', '-q', '-c', 'me/util');
    writeFiles(me, { 'packages/a/util.ts': `export function util(n: number): number {\n  return n + 2;\n}\n${numbered(30)}` });
    // Areas only (the legacy window would see bob by other means). Not committed: the config is read from the worktree.
    writeFileSync(join(me, '.git', 'info', 'exclude'), '.airspacerc.json\n');
    writeFileSync(join(me, '.airspacerc.json'), JSON.stringify({ beacons: { legacyRefs: 'off' } }));
    const graph = runCli(me, ['graph', 'build', '--json']);
    expect(graph.status, graph.stderr).toBe(0);
  }, 120_000);

  it('reads the peer that imports the changed file and scores it through the dependency channel', () => {
    const result = runCli(me, ['check', '--fetch', '--json']);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.scanned.peers.beacons).toBe(1);
    const link = report.links.find((l) => [l.a, l.b].includes('bob/consumer'));
    expect(link, JSON.stringify(report.links)).toBeDefined();
    expect(link!.channels.dependency).toBeGreaterThan(0);
    expect(report.scanned.stages.find((s) => s.stage === 'fetch')?.detail ?? '').not.toContain('dependency areas not read');
    expect(report.scanned.skipped.join('\n')).not.toContain('dependency areas not read');
    // Fetched under its own area, the one its beacon is published in (one directory per area: `<clone>.<agent>`).
    const fetched = gitIn(me, 'for-each-ref', '--format=%(refname)', `refs/airspace/remote/areas/${areaKey('packages/b')}/`);
    expect(fetched).toMatch(/\/[0-9a-f]{10}\.bob%2Fconsumer$/);
  });

  it('without an import graph, does not see it and says that dependency areas were not read', () => {
    rmSync(join(me, '.git', 'airspace', 'graph-v1.json'));
    const result = runCli(me, ['check', '--fetch', '--json']);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.scanned.peers.beacons).toBe(0);
    expect(report.scanned.stages.find((s) => s.stage === 'fetch')?.detail).toContain('dependency areas not read');
    expect(report.scanned.skipped.join('\n')).toContain('dependency areas not read');
    // And the text report says it among what was skipped (the run by hand built the small graph since: gone again).
    rmSync(join(me, '.git', 'airspace', 'graph-v1.json'));
    expect(runCli(me, ['check', '--fetch']).stdout).toContain('skipped: dependency areas not read');
  });
});

/**
 * A module everything imports puts the whole repository within the channel's reach. Listing it all
 * made the busiest push read every beacon on the remote; at most MAX_AREAS (64) areas are listed in
 * all, the nearest first, and the run says how many it left out. The peer that imports the
 * changed file directly (one hop) is among them, whatever the number of areas two hops away.
 */
describe('dependency areas past the bound', () => {
  let me: string;
  beforeAll(() => {
    const far: Record<string, string> = {};
    // 70 areas import the hub, which imports the changed file: two hops from it, the peer's one.
    for (let i = 0; i < 70; i++) far[`far${String(i).padStart(2, '0')}/m/x.ts`] = `import { hub } from '../../hub/h/hub.js';\nexport const x = hub;\n`;
    const setup = remoteWithClones(
      {
        'core/a/util.ts': `export function util(n: number): number {\n  return n + 1;\n}\n${numbered(30)}`,
        'hub/h/hub.ts': `import { util } from '../../core/a/util.js';\nexport const hub = util(0);\n`,
        'zpeer/p/consumer.ts': `import { util } from '../../core/a/util.js';\n\nexport const value = util(1);\n${numbered(30)}`,
        ...far,
      },
      2,
    );
    roots.push(setup.root);
    const [mine, bob] = setup.clones as [string, string];
    me = mine;
    gitIn(bob, 'switch', '-q', '-c', 'bob/consumer');
    writeFiles(bob, { 'zpeer/p/consumer.ts': `import { util } from '../../core/a/util.js';\n\nexport const value = util(2);\n${numbered(30)}` });
    expect(runCli(bob, ['beacon', 'publish']).status).toBe(0);
    gitIn(me, 'switch', '-q', '-c', 'me/util');
    writeFiles(me, { 'core/a/util.ts': `export function util(n: number): number {\n  return n + 2;\n}\n${numbered(30)}` });
    writeFileSync(join(me, '.git', 'info', 'exclude'), '.airspacerc.json\n');
    writeFileSync(join(me, '.airspacerc.json'), JSON.stringify({ beacons: { legacyRefs: 'off' } }));
    expect(runCli(me, ['graph', 'build', '--json']).status).toBe(0);
  }, 120_000);

  it('lists the nearest 63 of the 72 areas (64 with its own), says so, and still reads the direct importer', () => {
    const result = runCli(me, ['check', '--fetch', '--json']);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.scanned.stages.find((s) => s.stage === 'fetch')?.detail ?? '').toContain('the nearest 63 areas of 72');
    expect(report.scanned.peers.beacons).toBe(1);
    expect(report.links.find((l) => [l.a, l.b].includes('bob/consumer'))?.channels.dependency).toBeGreaterThan(0);
  });
});

/**
 * bob's beacon in the own area `packages/a` (he edits the file this agent edits); `packages/b`
 * imports it and holds no beacon: a dependency area with nothing to fetch. Areas only, graph built.
 */
function peerInOwnArea(): string {
  const setup = remoteWithClones(
    {
      'packages/a/util.ts': `export function util(n: number): number {\n  return n + 1;\n}\n${numbered(30)}`,
      'packages/b/consumer.ts': `import { util } from '../a/util.js';\n\nexport const value = util(1);\n${numbered(30)}`,
    },
    2,
  );
  roots.push(setup.root);
  const [me, bob] = setup.clones as [string, string];
  gitIn(bob, 'switch', '-q', '-c', 'bob/util');
  writeFiles(bob, { 'packages/a/util.ts': `export function util(n: number): number {\n  return n + 3;\n}\n${numbered(30)}` });
  expect(runCli(bob, ['beacon', 'publish']).status).toBe(0);
  gitIn(me, 'switch', '-q', '-c', 'me/util');
  writeFiles(me, { 'packages/a/util.ts': `export function util(n: number): number {\n  return n + 2;\n}\n${numbered(30)}` });
  writeFileSync(join(me, '.git', 'info', 'exclude'), '.airspacerc.json\n');
  writeFileSync(join(me, '.airspacerc.json'), JSON.stringify({ beacons: { legacyRefs: 'off' } }));
  expect(runCli(me, ['graph', 'build', '--json']).status).toBe(0);
  return me;
}

describe('dependency areas that hold no beacon', () => {
  it('are listed without failing the beacon fetch: the peer in the own area is read', () => {
    const me = peerInOwnArea();
    // Found on express: the first listing of `packages/b`'s empty area failed, and with it every beacon.
    const result = runCli(me, ['check', '--fetch', '--json']);
    expect(result.stderr).not.toContain('beacons not');
    const report = JSON.parse(result.stdout) as Report;
    expect(report.scanned.peers.beacons).toBe(1);
    expect(report.links.some((l) => [l.a, l.b].includes('bob/util'))).toBe(true);
  }, 120_000);
});

describe('a dependency listing that fails', () => {
  it('costs only the dependency areas: the own area is read, and the run says which part failed', () => {
    const me = peerInOwnArea();
    // A broken kept listing of the dependency areas: a file where its scratch repository's refs go.
    runCli(me, ['check', '--fetch', '--json']);
    const refs = join(me, '.git', 'airspace', 'nearby.git', 'refs');
    expect(existsSync(refs)).toBe(true);
    rmSync(refs, { recursive: true, force: true });
    writeFileSync(refs, 'not a directory\n');
    const result = runCli(me, ['check', '--fetch', '--json']);
    expect(result.stderr).not.toContain('beacons not');
    const report = JSON.parse(result.stdout) as Report;
    expect(report.scanned.peers.beacons).toBe(1);
    expect(report.scanned.skipped.join('\n')).toContain('dependency areas not read (their listing failed');
    // The broken listing is not kept: the next run builds a new one and reads the dependency areas again.
    const next = JSON.parse(runCli(me, ['check', '--fetch', '--json']).stdout) as Report;
    expect(next.scanned.skipped.join('\n')).not.toContain('their listing failed');
    expect(next.scanned.peers.beacons).toBe(1);
  }, 120_000);
});
