import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { areaKey } from '../../src/beacon/beacon-areas.js';
import { fetchBeacons } from '../../src/git/fetch-beacons.js';
import { gitIn, remoteWithClones, removeDir, runCli, testEnv, writeFiles } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

/**
 * Issue 27, the bytes of a read with dependency areas (docs/decisions/beacon-areas.md, "Dependency
 * areas"): a run reads at most 500 beacons, but the fetch took every listed ref's objects, 15.6 MiB
 * for a Zipf graph's median pusher. The dependency areas are now listed first (names and commits),
 * and fetched nearest area first, newest first, within the bound; the own areas are always whole.
 */
const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

const prefix = (area: string): string => `refs/airspace/areas/${areaKey(area)}/`;

/** `count` beacon commits (each its own `beacon.json`) under `<prefix><clone>/<name>-<i>`, dated `at + i`, in one fast-import. */
function plant(remote: string, refPrefix: string, name: string, count: number, at: number, padding = 0): void {
  const chunks: string[] = [];
  for (let i = 0; i < count; i++) {
    const json = JSON.stringify({ planted: `${name}-${i}`, ...(padding > 0 ? { padding: 'x'.repeat(padding) } : {}) });
    chunks.push(
      `commit ${refPrefix}0123456789/${name}-${i}\ncommitter b <b@example.invalid> ${at + i} +0000\ndata 1\nb\nM 100644 inline beacon.json\ndata ${Buffer.byteLength(json)}\n${json}\n`,
    );
  }
  const imported = spawnSync('git', ['fast-import', '--quiet'], { cwd: remote, input: chunks.join('\n') });
  expect(imported.status, imported.stderr.toString()).toBe(0);
}

/** fetchBeacons of `me` with the own area src/engine and `nearby` dependency areas, within `maxRefs`. */
const readArea = (me: string, maxRefs: number, nearby: string[]) =>
  fetchBeacons({
    cwd: me,
    remote: 'origin',
    commonDir: join(me, '.git'),
    maxBytes: 256 * 1024,
    timeoutMs: 30_000,
    maxRefs,
    prefixes: async () => ({ own: [prefix('src/engine')], nearby }),
  });

const has = (clone: string, object: string): boolean => spawnSync('git', ['cat-file', '-e', object], { cwd: clone }).status === 0;
const localRefs = (clone: string, under: string): string[] =>
  gitIn(clone, 'for-each-ref', '--format=%(refname)', under)
    .split('\n')
    .filter((line) => line !== '');

describe('a read whose dependency areas hold more beacons than the bound', () => {
  it('fetches the own areas whole and the nearest dependency areas newest first, within the bound, and says what it left', async () => {
    const setup = remoteWithClones({ 'src/engine/a.ts': 'a\n' }, 1);
    roots.push(setup.root);
    const [me] = setup.clones as [string];
    const now = Math.floor(Date.now() / 1000) - 3600;
    // Own area: 4 beacons, more than the bound of 3 alone. Nearest dependency area: 2; the next: 3.
    plant(setup.remote, prefix('src/engine'), 'own', 4, now);
    plant(setup.remote, prefix('lib/near'), 'near', 2, now);
    plant(setup.remote, prefix('lib/far'), 'far', 3, now);
    const read = () => readArea(me, 6, [prefix('lib/near'), prefix('lib/far')]);
    const result = await read();
    expect(result).toMatchObject({ listed: 9, selective: true, nearbyLeftOut: { refs: 3, areas: 1 } });
    const remote = (area: string, name: string) => gitIn(setup.remote, 'rev-parse', `${prefix(area)}0123456789/${name}`);
    // Own: all 4 (the bound never cuts them); near: both; far: none — 6 in all.
    expect(localRefs(me, `refs/airspace/remote/areas/${areaKey('src/engine')}/`)).toHaveLength(4);
    expect(localRefs(me, `refs/airspace/remote/areas/${areaKey('lib/near')}/`)).toHaveLength(2);
    expect(localRefs(me, `refs/airspace/remote/areas/${areaKey('lib/far')}/`)).toEqual([]);
    // The bytes: what was left out never reached the store (its beacon.json stays on the remote).
    for (let i = 0; i < 3; i++) expect(has(me, `${remote('lib/far', `far-${i}`)}:beacon.json`)).toBe(false);
    for (let i = 0; i < 2; i++) expect(has(me, `${remote('lib/near', `near-${i}`)}:beacon.json`)).toBe(true);

    // With room for one of the far area's: its newest. A warm read changes nothing else.
    const wider = await readArea(me, 7, [prefix('lib/near'), prefix('lib/far')]);
    expect(wider.nearbyLeftOut).toEqual({ refs: 2, areas: 1 });
    expect(localRefs(me, `refs/airspace/remote/areas/${areaKey('lib/far')}/`)).toEqual([`refs/airspace/remote/areas/${areaKey('lib/far')}/0123456789.far-2`]);
    expect(has(me, `${remote('lib/far', 'far-2')}:beacon.json`)).toBe(true);
    expect(has(me, `${remote('lib/far', 'far-0')}:beacon.json`)).toBe(false);
  });
});

describe('oversized beacons in a dependency area', () => {
  it('take no room once refused: the next read fetches the one that fits', async () => {
    const setup = remoteWithClones({ 'src/engine/a.ts': 'a\n' }, 1);
    roots.push(setup.root);
    const [me] = setup.clones as [string];
    const now = Math.floor(Date.now() / 1000) - 3600;
    plant(setup.remote, prefix('src/engine'), 'own', 4, now);
    plant(setup.remote, prefix('lib/near'), 'fits', 1, now);
    // Newer than the one that fits, and over the size limit: refused, never fetched.
    plant(setup.remote, prefix('lib/near'), 'huge', 2, now + 100, 300 * 1024);
    const read = () => readArea(me, 6, [prefix('lib/near')]);
    const near = `refs/airspace/remote/areas/${areaKey('lib/near')}/`;
    const first = await read();
    expect(first.refused).toBeGreaterThanOrEqual(2);
    expect(localRefs(me, near)).toEqual([]);
    await read();
    expect(localRefs(me, near)).toEqual([`${near}0123456789.fits-0`]);
  });
});

/**
 * The same through a run: more beacons in a dependency area than a run reads. The fetch stage and
 * the report's skipped list say how many were not fetched; the peer in the own area is read.
 */
describe('a check whose dependency area is flooded', () => {
  it('fetches within the bound, says so, and still reads the beacon planted in its own area', () => {
    const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `// line ${i + 1}`).join('\n')}\n`;
    const setup = remoteWithClones(
      {
        'packages/a/util.ts': `export function util(n: number): number {\n  return n + 1;\n}\n${numbered(30)}`,
        'packages/b/consumer.ts': `import { util } from '../a/util.js';\n\nexport const value = util(1);\n${numbered(30)}`,
      },
      2,
    );
    roots.push(setup.root);
    const [me, bob] = setup.clones as [string, string];
    // 520 refs in the dependency area packages/b: more than the 500 a run reads.
    plant(setup.remote, prefix('packages/b'), 'flood', 520, Math.floor(Date.now() / 1000) - 60);
    gitIn(bob, 'switch', '-q', '-c', 'bob/util');
    writeFiles(bob, { 'packages/a/util.ts': `export function util(n: number): number {\n  return n + 1;\n}\n${numbered(30).replace('// line 20', '// bob')}` });
    expect(runCli(bob, ['beacon', 'publish']).status).toBe(0);
    gitIn(me, 'switch', '-q', '-c', 'me/util');
    writeFiles(me, { 'packages/a/util.ts': `export function util(n: number): number {\n  return n + 2;\n}\n${numbered(30)}` });
    writeFileSync(join(me, '.git', 'info', 'exclude'), '.airspacerc.json\n');
    writeFileSync(join(me, '.airspacerc.json'), JSON.stringify({ beacons: { legacyRefs: 'off' } }));
    expect(runCli(me, ['graph', 'build', '--json']).status).toBe(0);

    const result = runCli(me, ['check', '--fetch', '--json']);
    const report = JSON.parse(result.stdout) as {
      links: { a: string; b: string }[];
      scanned: { skipped: string[]; stages: { stage: string; detail?: string }[] };
    };
    const notFetched = 'dependency areas: 21 beacon refs in 1 area not fetched';
    expect(report.scanned.stages.find((s) => s.stage === 'fetch')?.detail ?? '').toContain(notFetched);
    expect(report.scanned.skipped.join('\n')).toContain(notFetched);
    // The planted beacon in the own area is read: bob is a peer.
    expect(
      report.links.some((l) => [l.a, l.b].includes('bob/util')),
      JSON.stringify(report.links),
    ).toBe(true);
    expect(localRefs(me, `refs/airspace/remote/areas/${areaKey('packages/b')}/`)).toHaveLength(499);
  }, 120_000);
});

/**
 * The pusher of the hottest area (docs/decisions/beacon-areas.md): its own areas alone fill the read
 * bound, so not one dependency-area ref could be fetched, yet their listing cost ~1 MiB of names and
 * commits. They are no longer listed then, and the run says why.
 */
describe('own areas that fill the read bound alone', () => {
  it('list no dependency area: nothing of theirs fetched, earlier copies gone, and the result says why', async () => {
    const setup = remoteWithClones({ 'src/engine/a.ts': 'a\n' }, 1);
    roots.push(setup.root);
    const [me] = setup.clones as [string];
    const now = Math.floor(Date.now() / 1000) - 3600;
    plant(setup.remote, prefix('src/engine'), 'own', 4, now);
    plant(setup.remote, prefix('lib/near'), 'near', 2, now);
    const read = (maxRefs: number) => readArea(me, maxRefs, [prefix('lib/near')]);
    const near = `refs/airspace/remote/areas/${areaKey('lib/near')}/`;
    // A bound of 4 and 4 own refs: the nearby area is not listed (its scratch repository never made).
    const full = await read(4);
    expect(full).toEqual({ refused: 0, listed: 4, selective: true, nearbyNotListed: { ownRefs: 4 } });
    expect(existsSync(join(me, '.git', 'airspace', 'nearby.git'))).toBe(false);
    expect(localRefs(me, near)).toEqual([]);
    expect(has(me, gitIn(setup.remote, 'rev-parse', `${prefix('lib/near')}0123456789/near-0`))).toBe(false);
    expect(localRefs(me, `refs/airspace/remote/areas/${areaKey('src/engine')}/`)).toHaveLength(4);
    // With room, the nearby area is listed and fetched; with none again, its copies go (the local
    // copy mirrors what was read).
    const roomy = await read(6);
    expect(roomy.nearbyNotListed).toBeUndefined();
    expect(localRefs(me, near)).toHaveLength(2);
    expect((await read(3)).nearbyNotListed).toEqual({ ownRefs: 4 });
    expect(localRefs(me, near)).toEqual([]);
  });

  it('counts no own ref already refused for its size: those never fill the bound', async () => {
    const setup = remoteWithClones({ 'src/engine/a.ts': 'a\n' }, 1);
    roots.push(setup.root);
    const [me] = setup.clones as [string];
    const now = Math.floor(Date.now() / 1000) - 3600;
    plant(setup.remote, prefix('src/engine'), 'huge', 4, now, 300 * 1024);
    plant(setup.remote, prefix('lib/near'), 'near', 2, now);
    const read = () => readArea(me, 4, [prefix('lib/near')]);
    const near = `refs/airspace/remote/areas/${areaKey('lib/near')}/`;
    // The first read learns that the own four are too large; from then on they take no room.
    expect((await read()).refused).toBe(4);
    const second = await read();
    expect(second.nearbyNotListed).toBeUndefined();
    expect(localRefs(me, near)).toHaveLength(2);
  });

  it('a check says the dependency areas were not read, and why, and reads the peer in its own area', () => {
    const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `// line ${i + 1}`).join('\n')}\n`;
    const setup = remoteWithClones(
      {
        'packages/a/util.ts': `export function util(n: number): number {\n  return n + 1;\n}\n${numbered(30)}`,
        'packages/b/consumer.ts': `import { util } from '../a/util.js';\n\nexport const value = util(1);\n${numbered(30)}`,
      },
      2,
    );
    roots.push(setup.root);
    const [me, bob] = setup.clones as [string, string];
    // 500 refs in the own area packages/a (the bound alone), a few in the dependency area packages/b.
    plant(setup.remote, prefix('packages/a'), 'flood', 500, Math.floor(Date.now() / 1000) - 60);
    plant(setup.remote, prefix('packages/b'), 'near', 3, Math.floor(Date.now() / 1000) - 60);
    gitIn(bob, 'switch', '-q', '-c', 'bob/util');
    writeFiles(bob, { 'packages/a/util.ts': `export function util(n: number): number {\n  return n + 1;\n}\n${numbered(30).replace('// line 20', '// bob')}` });
    expect(runCli(bob, ['beacon', 'publish']).status).toBe(0);
    gitIn(me, 'switch', '-q', '-c', 'me/util');
    writeFiles(me, { 'packages/a/util.ts': `export function util(n: number): number {\n  return n + 2;\n}\n${numbered(30)}` });
    writeFileSync(join(me, '.git', 'info', 'exclude'), '.airspacerc.json\n');
    writeFileSync(join(me, '.airspacerc.json'), JSON.stringify({ beacons: { legacyRefs: 'off' } }));
    expect(runCli(me, ['graph', 'build', '--json']).status).toBe(0);

    const result = runCli(me, ['check', '--fetch', '--json']);
    const report = JSON.parse(result.stdout) as {
      links: { a: string; b: string }[];
      scanned: { skipped: string[]; stages: { stage: string; detail?: string }[] };
    };
    const why = "dependency areas not read (the own areas' 501 beacon refs fill the 500 a run fetches)";
    expect(report.scanned.stages.find((s) => s.stage === 'fetch')?.detail ?? '').toContain(why);
    expect(report.scanned.skipped.join('\n')).toContain(why);
    expect(
      report.links.some((l) => [l.a, l.b].includes('bob/util')),
      JSON.stringify(report.links),
    ).toBe(true);
    expect(localRefs(me, `refs/airspace/remote/areas/${areaKey('packages/b')}/`)).toEqual([]);
    expect(existsSync(join(me, '.git', 'airspace', 'nearby.git'))).toBe(false);
  }, 120_000);
});
