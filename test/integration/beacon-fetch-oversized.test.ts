import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchTraffic } from '../../src/git/fetch-traffic.js';
import { copyRemoteWithClones, type RemoteWithClones } from '../helpers/copy-fixture.js';
import { installedClones } from '../helpers/copied-clones.js';
import { commitAll, gitIn, pathWithCli, removeDir, testEnv, writeFiles } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

/**
 * Issue 24, item 2: an oversized beacon on the remote made every fetch time out, and the check was
 * silently off — a conflicting push went through. Here the limit is small (`beacons.maxBytes` 4 KiB)
 * and the hostile beacon just above it: the size holds at the fetch (the blob never lands in the
 * object store, no temporary object is left, no config is written), and the conflicting push is
 * still blocked on the branch it collides with. A beacon part that fails leaves the branches fetched.
 */
const MAX_BYTES = 4096;
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const PATH = pathWithCli();
const roots: string[] = [];
let fixture: RemoteWithClones;

function git(cwd: string, args: string[]) {
  return spawnSync('git', args, { cwd, env: testEnv({ PATH }), encoding: 'utf8', timeout: 120_000 });
}

function gitWithInput(cwd: string, args: string[], input: string): string {
  return execFileSync('git', args, { cwd, input, env: testEnv(), encoding: 'utf8' }).trim();
}

beforeAll(() => {
  fixture = installedClones({ 'src/session.ts': numbered(80), '.airspacerc.json': JSON.stringify({ beacons: { maxBytes: MAX_BYTES } }) }, 2, PATH);
  roots.push(fixture.root);
  const [one, two] = fixture.clones as [string, string];
  for (const [clone, branch, tag] of [
    [one, 'one/work', 'one'],
    [two, 'two/work', 'two'],
  ] as const) {
    gitIn(clone, 'switch', '-q', '-c', branch);
    writeFiles(clone, { 'src/session.ts': numbered(80).replace('line 20\n', `line 20 ${tag}\n`) });
    commitAll(clone, `${tag}: edit the session lines`);
  }
}, 120_000);

afterAll(() => roots.forEach(removeDir));

/** A beacon commit whose `beacon.json` is `bytes` long, pushed by a hostile writer; returns the blob id. */
function pushHostileBeacon(from: string, bytes: number): string {
  const json = `{"schema":1,"agent":"huge","pad":"${'x'.repeat(bytes)}"}`;
  const blob = gitWithInput(from, ['hash-object', '-w', '--stdin'], json);
  const tree = gitWithInput(from, ['mktree'], `100644 blob ${blob}\tbeacon.json\n`);
  const commit = gitIn(from, 'commit-tree', tree, '-m', 'beacon');
  gitIn(from, 'push', '-q', '--no-verify', 'origin', `${commit}:refs/airspace/beacons/huge`);
  return blob;
}

function leftovers(clone: string): string[] {
  const objects = join(clone, '.git', 'objects');
  const tmp = [...readdirSync(objects), ...readdirSync(join(objects, 'pack'))].filter((name) => name.startsWith('tmp_'));
  const airspace = join(clone, '.git', 'airspace');
  const incoming = existsSync(airspace) ? readdirSync(airspace).filter((name) => name.startsWith('incoming-')) : [];
  return [...tmp, ...incoming];
}

describe('an oversized beacon on the remote', () => {
  for (const filter of [false, true]) {
    it(`never lands and never switches the check off (${filter ? 'remote honours --filter' : 'plain path remote, no filter'})`, () => {
      const setup = copyRemoteWithClones(fixture);
      roots.push(setup.root);
      const [one, two] = setup.clones as [string, string];
      if (filter) gitIn(setup.remote, 'config', 'uploadpack.allowFilter', 'true');
      const landed = git(one, ['push', '-u', 'origin', 'HEAD']);
      expect(landed.status, landed.stderr).toBe(0);
      const blob = pushHostileBeacon(one, MAX_BYTES + 1);
      const config = readFileSync(join(two, '.git', 'config'), 'utf8');

      const blocked = git(two, ['push', '-u', 'origin', 'HEAD']);
      expect(blocked.status, blocked.stderr).not.toBe(0);
      expect(blocked.stderr).toContain('RA  one/work');
      // Not one object of it kept; nothing half-written left; the user's config untouched (no promisor).
      expect(git(two, ['cat-file', '-e', blob]).status).not.toBe(0);
      expect(gitIn(two, 'for-each-ref', 'refs/airspace/remote/beacons/huge')).toBe('');
      expect(leftovers(two)).toEqual([]);
      expect(readFileSync(join(two, '.git', 'config'), 'utf8')).toBe(config);
      expect(gitIn(two, 'fsck', '--connectivity-only', '--no-dangling')).toBe('');
      // Refused once, remembered: the next push does not fetch it again, and is still blocked.
      expect(readFileSync(join(two, '.git', 'airspace', 'refused-beacons.json'), 'utf8')).toMatch(/^\["[0-9a-f]{40}"\]/);
      const again = git(two, ['push', '-u', 'origin', 'HEAD']);
      expect(again.status, again.stderr).not.toBe(0);
      expect(again.stderr).toContain('RA  one/work');
      expect(git(two, ['cat-file', '-e', blob]).status).not.toBe(0);
    });
  }

  it('a beacon just under the limit is fetched and kept', async () => {
    const setup = copyRemoteWithClones(fixture);
    roots.push(setup.root);
    const [one, two] = setup.clones as [string, string];
    const blob = pushHostileBeacon(one, MAX_BYTES - 100);
    const result = await fetchTraffic(two, 'origin', { timeoutMs: 30_000, beaconMaxBytes: MAX_BYTES });
    expect(result).toMatchObject({ ok: true });
    expect(result.beaconsRefused).toBeUndefined();
    expect(git(two, ['cat-file', '-e', blob]).status).toBe(0);
    expect(gitIn(two, 'for-each-ref', '--format=%(refname)', 'refs/airspace/remote/beacons/')).toBe('refs/airspace/remote/beacons/huge');
    expect(leftovers(two)).toEqual([]);
  });

  it('a beacon part that fails leaves the branches fetched, and says which part failed', async () => {
    const setup = copyRemoteWithClones(fixture);
    roots.push(setup.root);
    const [one, two] = setup.clones as [string, string];
    expect(git(one, ['push', '-q', '--no-verify', '-u', 'origin', 'HEAD']).status).toBe(0);
    // A 1 ms box: the beacon part is stopped, the branch part has its own.
    const result = await fetchTraffic(two, 'origin', { timeoutMs: 30_000, beaconTimeoutMs: 1, beaconMaxBytes: MAX_BYTES });
    expect(result.ok).toBe(true);
    expect(result.beaconsFailed).toMatch(/took longer than 1 ms/);
    expect(gitIn(two, 'rev-parse', 'refs/airspace/branches/origin/one/work')).toBe(gitIn(one, 'rev-parse', 'HEAD'));
    expect(leftovers(two)).toEqual([]);
  });
});
