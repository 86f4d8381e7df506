import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { areaKey } from '../../src/beacon/beacon-areas.js';
import { fetchBeacons } from '../../src/git/fetch-beacons.js';
import { gitIn, remoteWithClones, removeDir, testEnv } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

/**
 * A selective read keeps its scratch repository between runs (src/git/fetch-beacons.ts,
 * openKeptScratch): its refs are the last listing, so what it lists must still be exactly what the
 * remote holds under this run's areas — a beacon deleted on the remote, or an area this run no longer
 * reads, must not come back from the kept refs — and a run that finds it held by another still reads.
 */
const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

const engine = `refs/airspace/areas/${areaKey('src/engine')}/`;
const report = `refs/airspace/areas/${areaKey('src/report')}/`;

const localBeacons = (clone: string): string[] =>
  gitIn(clone, 'for-each-ref', '--format=%(refname)', 'refs/airspace/remote/')
    .split('\n')
    .filter((line) => line !== '');
// Read as files: between runs the kept repository has no objects directory, so git would not open it.
const keptRefs = (clone: string): string[] => {
  const refs = join(clone, '.git', 'airspace', 'listing.git', 'refs');
  return readdirSync(join(refs, 'airspace'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(join(refs, '..'), join(entry.parentPath, entry.name)))
    .sort();
};
const scratchLeft = (clone: string): string[] => readdirSync(join(clone, '.git', 'airspace')).filter((name) => name.startsWith('incoming-'));

function read(clone: string, prefixes: readonly string[]) {
  return fetchBeacons({
    cwd: clone,
    remote: 'origin',
    commonDir: join(clone, '.git'),
    maxBytes: 256 * 1024,
    timeoutMs: 30_000,
    prefixes: async () => prefixes,
  });
}

describe('the kept beacon listing', () => {
  it('mirrors the remote under this run’s areas only, and a held listing does not stop a read', async () => {
    const setup = remoteWithClones({ 'src/engine/a.ts': 'a\n', 'src/report/b.ts': 'b\n' }, 2);
    roots.push(setup.root);
    const [me, peer] = setup.clones as [string, string];
    for (const name of ['one', 'two']) gitIn(peer, 'push', '-q', 'origin', `HEAD:${engine}0123456789/${name}`);
    gitIn(peer, 'push', '-q', 'origin', `HEAD:${report}0123456789/three`);

    expect(await read(me, [engine])).toMatchObject({ listed: 2, selective: true });
    expect(localBeacons(me)).toEqual([
      `refs/airspace/remote/areas/${areaKey('src/engine')}/0123456789.one`,
      `refs/airspace/remote/areas/${areaKey('src/engine')}/0123456789.two`,
    ]);
    expect(keptRefs(me)).toEqual([`${engine}0123456789/one`, `${engine}0123456789/two`]);
    // The kept repository keeps refs, never objects: those are the quarantine of one run.
    expect(existsSync(join(me, '.git', 'airspace', 'listing.git', 'objects'))).toBe(false);

    // Deleted on the remote: gone from the listing and from our copies.
    gitIn(peer, 'push', '-q', 'origin', `:${engine}0123456789/one`);
    expect(await read(me, [engine])).toMatchObject({ listed: 1 });
    expect(localBeacons(me)).toEqual([`refs/airspace/remote/areas/${areaKey('src/engine')}/0123456789.two`]);

    // The work moved to another area: the refs of the area left are no part of the listing any more.
    expect(await read(me, [report])).toMatchObject({ listed: 1 });
    expect(localBeacons(me)).toEqual([`refs/airspace/remote/areas/${areaKey('src/report')}/0123456789.three`]);
    expect(keptRefs(me)).toEqual([`${report}0123456789/three`]);

    // A run killed mid-fetch left a ref's lock in the kept listing: this run still reads (the kept one
    // is discarded, the read done in a fresh scratch), and the next keeps a listing again.
    gitIn(peer, 'push', '-q', 'origin', `HEAD:${report}0123456789/four`);
    writeFileSync(join(me, '.git', 'airspace', 'listing.git', `${report}0123456789`, 'four.lock'), '');
    expect(await read(me, [report])).toMatchObject({ listed: 2 });
    expect(localBeacons(me)).toEqual([
      `refs/airspace/remote/areas/${areaKey('src/report')}/0123456789.four`,
      `refs/airspace/remote/areas/${areaKey('src/report')}/0123456789.three`,
    ]);
    expect(existsSync(join(me, '.git', 'airspace', 'listing.git'))).toBe(false);
    expect(await read(me, [report])).toMatchObject({ listed: 2 });
    expect(keptRefs(me)).toEqual([`${report}0123456789/four`, `${report}0123456789/three`]);
    gitIn(peer, 'push', '-q', 'origin', `:${report}0123456789/four`);
    expect(await read(me, [report])).toMatchObject({ listed: 1 });

    // Another live run holds the listing (this process's own pid): this one reads in a scratch of its own.
    const lock = join(me, '.git', 'airspace', 'listing.lock');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, startedAt: Date.now(), token: 'held-by-another-run' }));
    expect(await read(me, [engine, report])).toMatchObject({ listed: 2 });
    expect(localBeacons(me)).toHaveLength(2);
    expect(keptRefs(me)).toEqual([`${report}0123456789/three`]);
    expect(scratchLeft(me)).toEqual([]);
  });
});
