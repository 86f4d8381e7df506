import { afterAll, describe, expect, it } from 'vitest';
import { areaKey } from '../../src/beacon/beacon-areas.js';
import { gitIn, remoteWithClones, removeDir, runCli, testEnv, writeFiles } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

/**
 * The fetched area beacons stand here as `refs/airspace/remote/areas/<key>/<clone>.<agent>`, one
 * loose-ref directory per area (src/git/fetched-area-refs.ts): a cold read of 594 beacons wrote 594
 * new directories, 1.25–2.15 s of `update-ref` (docs/decisions/beacon-areas.md, "The busiest pusher").
 * The copies in that layout are read, listed and withdrawn; copies an older release left in the
 * remote's layout (`…/<key>/<clone>/<agent>`) are still read, withdrawn with their beacon, and
 * replaced by the next fetch.
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

const engine = `refs/airspace/remote/areas/${areaKey('src/engine')}/`;
const localAreaRefs = (clone: string): string[] =>
  gitIn(clone, 'for-each-ref', '--format=%(refname)', 'refs/airspace/remote/areas/')
    .split('\n')
    .filter((line) => line !== '');

interface Report {
  readonly scanned: { peers: { beacons: number } };
}
const beaconPeers = (clone: string, args: string[]): number => {
  const result = runCli(clone, [...args, '--json']);
  return (JSON.parse(result.stdout) as Report).scanned.peers.beacons;
};

describe('the local layout of fetched area beacons', () => {
  it('reads, lists and withdraws the flat copies, and an older layout left in the clone breaks nothing', () => {
    const setup = remoteWithClones({ 'src/engine/session.ts': numbered(20), '.gitignore': '.airspacerc.json\n' }, 2);
    roots.push(setup.root);
    const [me, bob] = setup.clones as [string, string];
    for (const [clone, name] of [
      [me, 'me/work'],
      [bob, 'bob/work'],
    ] as const) {
      writeFiles(clone, { '.airspacerc.json': JSON.stringify({ beacons: { legacyRefs: 'off' } }) });
      gitIn(clone, 'switch', '-q', '-c', name);
      writeFiles(clone, { 'src/engine/session.ts': numbered(20).replace('line 3\n', `line 3 ${name}\n`) });
      expect(runCli(clone, ['beacon', 'publish']).status).toBe(0);
    }

    // An older release's copies: the remote's names, one directory per clone.
    gitIn(me, 'fetch', '-q', 'origin', '+refs/airspace/areas/*:refs/airspace/remote/areas/*');
    const old = localAreaRefs(me);
    expect(old).toHaveLength(2);
    for (const ref of old) expect(ref).toMatch(new RegExp(`^${engine}[0-9a-f]{10}/(?:bob|me)%2Fwork$`));
    // Read as they are, without a fetch.
    expect(beaconPeers(me, ['check'])).toBe(1);

    // The next fetch replaces them: one directory per area, `<clone>.<agent>`, nothing of the old layout left.
    expect(beaconPeers(me, ['check', '--fetch'])).toBe(1);
    const flat = localAreaRefs(me);
    expect(flat).toHaveLength(2);
    for (const ref of flat) expect(ref).toMatch(new RegExp(`^${engine}[0-9a-f]{10}\\.(?:bob|me)%2Fwork$`));
    expect(beaconPeers(me, ['check'])).toBe(1);

    // `beacon list` reads them (fetched whole, into the same layout).
    const listed = runCli(me, ['beacon', 'list']);
    expect(listed.stdout).toContain('bob/work');
    expect(listed.stdout).toContain('me/work');
    expect(localAreaRefs(me)).toEqual(flat);

    // Withdrawn: the remote's ref and the flat copy go.
    expect(runCli(me, ['beacon', 'clear']).status).toBe(0);
    expect(gitIn(setup.remote, 'for-each-ref', '--format=%(refname)', 'refs/airspace/')).not.toContain('me%2Fwork');
    expect(localAreaRefs(me)).toEqual([expect.stringMatching(/\.bob%2Fwork$/)]);

    // An older layout's copy of this clone's own beacon goes with it too.
    expect(runCli(me, ['beacon', 'publish']).status).toBe(0);
    gitIn(me, 'fetch', '-q', 'origin', '+refs/airspace/areas/*:refs/airspace/remote/areas/*');
    expect(localAreaRefs(me).filter((ref) => /\/[0-9a-f]{10}\/me%2Fwork$/.test(ref))).toHaveLength(1);
    expect(runCli(me, ['beacon', 'clear']).status).toBe(0);
    expect(localAreaRefs(me).filter((ref) => ref.includes('me%2Fwork'))).toEqual([]);
  }, 120_000);
});
