import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchTraffic, lastFetchAge } from '../../src/git/fetch-traffic.js';
import { commitAll, gitIn, initRepo, removeDir, tempDir, testEnv, userStateFingerprint, writeFiles } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function remoteWithClones(): { remote: string; mine: string; theirs: string } {
  const root = tempDir();
  dirs.push(root);
  const seed = join(root, 'seed');
  mkdirSync(seed);
  initRepo({ 'a.txt': 'a\n' }, seed);
  const remote = join(root, 'remote.git');
  gitIn(root, 'init', '-q', '--bare', '-b', 'main', remote);
  gitIn(seed, 'push', '-q', remote, 'main');
  gitIn(root, 'clone', '-q', remote, join(root, 'mine'));
  gitIn(root, 'clone', '-q', remote, join(root, 'theirs'));
  return { remote, mine: join(root, 'mine'), theirs: join(root, 'theirs') };
}

function gitWithInput(cwd: string, args: string[], input: string | Buffer): string {
  return execFileSync('git', args, { cwd, input, env: testEnv(), encoding: 'utf8' }).trim();
}

function beaconCommit(cwd: string, parent: string, json: string | Buffer): string {
  const blob = gitWithInput(cwd, ['hash-object', '-w', '--stdin'], json);
  const tree = gitWithInput(cwd, ['mktree'], `100644 blob ${blob}\tbeacon.json\n`);
  return gitIn(cwd, 'commit-tree', tree, '-p', parent, '-m', 'beacon');
}

describe('fetchTraffic', () => {
  it('fetches branches and beacons, prunes only its own refs, stamps the time, and leaves the user state alone', async () => {
    const { mine, theirs } = remoteWithClones();
    gitIn(theirs, 'switch', '-q', '-c', 'feature/peer');
    writeFiles(theirs, { 'b.txt': 'b\n' });
    const peerSha = commitAll(theirs, 'peer');
    // A beacon commit: `beacon.json` in its tree, the work as its parent (src/beacon/publish-beacon.ts).
    const beaconSha = beaconCommit(theirs, peerSha, '{}\n');
    gitIn(theirs, 'push', '-q', 'origin', 'feature/peer', `${beaconSha}:refs/airspace/beacons/feature/peer`);
    writeFiles(mine, { 'a.txt': 'uncommitted\n' });
    const before = userStateFingerprint(mine);

    const result = await fetchTraffic(mine, 'origin', { timeoutMs: 30_000, now: () => 1_000_000 });
    expect(result).toEqual({ ok: true, at: 1_000_000 });
    expect(gitIn(mine, 'rev-parse', 'refs/airspace/branches/origin/feature/peer')).toBe(peerSha);
    // What the user's `git fetch origin` would have done through their refspec (git's opportunistic update).
    expect(gitIn(mine, 'rev-parse', 'refs/remotes/origin/feature/peer')).toBe(peerSha);
    expect(gitIn(mine, 'rev-parse', 'refs/airspace/remote/beacons/feature/peer')).toBe(beaconSha);
    expect(existsSync(join(mine, '.git', 'FETCH_HEAD'))).toBe(false);
    expect(userStateFingerprint(mine)).toBe(before);

    const commonDir = join(mine, '.git');
    expect(JSON.parse(readFileSync(join(commonDir, 'airspace', 'last-fetch.json'), 'utf8'))).toEqual({ remote: 'origin', at: 1_000_000 });
    expect(await lastFetchAge(commonDir, 1_060_000)).toEqual({ remote: 'origin', at: 1_000_000, ageMs: 60_000 });

    gitIn(theirs, 'push', '-q', 'origin', '--delete', 'feature/peer', 'refs/airspace/beacons/feature/peer');
    expect((await fetchTraffic(mine, 'origin', { timeoutMs: 30_000 })).ok).toBe(true);
    expect(gitIn(mine, 'for-each-ref', '--format=%(refname)', 'refs/airspace/')).toBe('refs/airspace/branches/origin/main');
    // The user's own ref is theirs to prune (`git fetch --prune`, fetch.prune).
    expect(gitIn(mine, 'rev-parse', 'refs/remotes/origin/feature/peer')).toBe(peerSha);
  });

  it('a failing fetch is an answer with a reason, and the last good stamp stays', async () => {
    const { mine } = remoteWithClones();
    expect((await fetchTraffic(mine, 'origin', { timeoutMs: 30_000, now: () => 5 })).ok).toBe(true);
    gitIn(mine, 'remote', 'set-url', 'origin', join(mine, 'no-such-remote.git'));
    const failed = await fetchTraffic(mine, 'origin', { timeoutMs: 30_000, now: () => 9 });
    expect(failed).toMatchObject({ ok: false, at: 9, reason: expect.stringContaining('git fetch origin failed') });
    const missing = await fetchTraffic(mine, 'nowhere', { timeoutMs: 30_000 });
    expect(missing.ok).toBe(false);
    expect(await lastFetchAge(join(mine, '.git'), 10)).toEqual({ remote: 'origin', at: 5, ageMs: 5 });
  });

  it('never fetched: no age', async () => {
    const dir = initRepo();
    dirs.push(dir);
    expect(await lastFetchAge(join(dir, '.git'))).toBeNull();
  });
});
