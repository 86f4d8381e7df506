import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { areaKey } from '../../src/beacon/beacon-areas.js';
import { fetchTraffic } from '../../src/git/fetch-traffic.js';
import { gitIn, remoteWithClones, removeDir, testEnv } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

/**
 * The selective listing fetches in a scratch repository (src/git/fetch-beacons.ts listSelected); a
 * relative remote url (`../remote.git`) must resolve as the user's own `git fetch` resolves it, from
 * the worktree's top, even when the check runs in a subdirectory.
 */
const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

describe('a selective beacon fetch', () => {
  it('reaches a remote configured by a relative path from a subdirectory', async () => {
    const setup = remoteWithClones({ 'src/engine/a.ts': 'a\n' }, 1);
    roots.push(setup.root);
    const [me] = setup.clones as [string];
    const prefix = `refs/airspace/areas/${areaKey('src/engine')}/`;
    gitIn(me, 'push', '-q', 'origin', `HEAD:${prefix}0123456789/peer`);
    gitIn(me, 'remote', 'set-url', 'origin', '../remote.git');
    const sub = join(me, 'src', 'engine');
    mkdirSync(sub, { recursive: true });
    const result = await fetchTraffic(sub, 'origin', { timeoutMs: 30_000, beaconPrefixes: async () => [prefix] });
    expect(result).toMatchObject({ ok: true });
    expect(result.beaconsFailed).toBeUndefined();
    expect(gitIn(me, 'for-each-ref', '--format=%(refname)', 'refs/airspace/remote/')).toBe(
      `refs/airspace/remote/areas/${areaKey('src/engine')}/0123456789.peer`,
    );
  });
});
