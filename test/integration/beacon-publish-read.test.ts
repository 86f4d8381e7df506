import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAgentId } from '../../src/beacon/agent-ref.js';
import type { Beacon } from '../../src/beacon/beacon-schema.js';
import { listBeacons } from '../../src/beacon/list-beacons.js';
import { areaKey } from '../../src/beacon/beacon-areas.js';
import { publishBeacon } from '../../src/beacon/publish-beacon.js';
import { clearBeacon } from '../../src/beacon/withdraw-beacons.js';
import { readBeacons } from '../../src/beacon/read-beacons.js';
import { gitIn, remoteWithClones, removeDir, userStateFingerprint, writeFiles } from '../helpers/temp-repo.js';

const lines = (n: number): string => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const FETCH = '+refs/airspace/*:refs/airspace/remote/*';

describe('beacon: publish from one clone, read in another', () => {
  let root: string;
  let a: string;
  let b: string;
  let beacon: Beacon;
  const now = Date.now();

  beforeAll(() => {
    const setup = remoteWithClones({ 'src/auth.ts': lines(50), 'README.md': '# demo\n' });
    root = setup.root;
    [a = '', b = ''] = setup.clones;
    gitIn(a, 'checkout', '-q', '-b', 'feature/login');
    // Uncommitted edit of line 10 in A: exactly what a pushed branch cannot show.
    writeFiles(a, { 'src/auth.ts': lines(50).replace('line 10\n', 'line ten\n') });
    // Hostile-to-us configuration: signing on with a failing program, no identity.
    gitIn(a, 'config', 'commit.gpgSign', 'true');
    gitIn(a, 'config', 'gpg.program', 'false');
    const head = gitIn(a, 'rev-parse', 'HEAD');
    beacon = {
      schema: 1,
      agent: 'feature/login',
      branch: 'feature/login',
      head,
      base: head,
      workingSet: { base: head, files: [{ file: 'src/auth.ts', status: 'M', ranges: [[10, 11]], origin: 'uncommitted', lastEditTime: now - 5000 }] },
      intent: ['src/session.ts'],
      committedWork: 0,
      startedAt: null,
      updatedAt: now,
      note: 'moving login to sessions',
    };
  });
  afterAll(() => removeDir(root));

  it('publishes one ref without touching the user state, and B reads the uncommitted ranges', async () => {
    const beforeA = userStateFingerprint(a);
    const result = await publishBeacon(a, 'origin', beacon, { timeoutMs: 15_000 });
    expect(result).toMatchObject({ ok: true, ref: `refs/airspace/beacons/${encodeAgentId('feature/login')}` });
    expect(userStateFingerprint(a)).toBe(beforeA);
    expect(gitIn(a, 'status', '--porcelain')).toBe(' M src/auth.ts');

    // One commit under two refs: the legacy one and the area of src/auth.ts and src/session.ts (`src`).
    const remoteRefs = gitIn(a, 'ls-remote', 'origin', 'refs/airspace/*').split('\n');
    expect(remoteRefs.map((line) => line.split('\t')[1])).toEqual([
      `refs/airspace/areas/${areaKey('src')}/${encodeAgentId('feature/login')}`,
      `refs/airspace/beacons/${encodeAgentId('feature/login')}`,
    ]);
    expect(new Set(remoteRefs.map((line) => line.split('\t')[0]))).toEqual(new Set([result.commit]));
    expect(gitIn(a, 'cat-file', '-t', result.commit!)).toBe('commit');
    expect(gitIn(a, 'ls-tree', '--name-only', result.commit!)).toBe('beacon.json');

    const beforeB = userStateFingerprint(b);
    gitIn(b, 'fetch', '-q', 'origin', FETCH);
    const read = await readBeacons(b, { now: now + 1000 });
    expect(read.skipped).toEqual([]);
    expect(read.beacons).toHaveLength(1);
    expect(read.beacons[0]).toEqual(beacon);
    expect(read.beacons[0]?.workingSet.files[0]?.ranges).toEqual([[10, 11]]);
    expect(userStateFingerprint(b)).toBe(beforeB);
  });

  it('republishing an unchanged beacon gives the same commit', async () => {
    const first = await publishBeacon(a, 'origin', beacon, { timeoutMs: 15_000 });
    const second = await publishBeacon(a, 'origin', beacon, { timeoutMs: 15_000 });
    expect(second.ok).toBe(true);
    expect(second.commit).toBe(first.commit);
  });

  it('skips its own beacon and expires old ones by TTL', async () => {
    gitIn(a, 'fetch', '-q', 'origin', FETCH);
    expect((await readBeacons(a, { now, selfId: 'feature/login' })).beacons).toEqual([]);
    const late = await readBeacons(b, { now: now + 2 * 24 * 3_600_000 });
    expect(late.beacons).toEqual([]);
    expect(late.skipped).toEqual([{ ref: `refs/airspace/remote/beacons/${encodeAgentId('feature/login')}`, reason: 'expired', detail: String(now) }]);
    expect((await readBeacons(b, { now: now + 61_000, ttlMs: 60_000 })).skipped[0]?.reason).toBe('expired');
    expect((await readBeacons(b, { now: now + 59_000, ttlMs: 60_000 })).beacons).toHaveLength(1);
  });

  it('lists the remote beacons with decoded ids', async () => {
    const listed = await listBeacons(b, 'origin', { timeoutMs: 15_000 });
    expect(listed.ok).toBe(true);
    expect(listed.beacons.map((x) => x.agent)).toEqual(['feature/login']);
  });

  it('clears the remote ref idempotently', async () => {
    expect((await clearBeacon(a, 'origin', 'feature/login', { timeoutMs: 15_000 })).ok).toBe(true);
    expect(gitIn(a, 'ls-remote', 'origin', 'refs/airspace/*')).toBe('');
    expect((await clearBeacon(a, 'origin', 'feature/login', { timeoutMs: 15_000 })).ok).toBe(true);
    // A pruning fetch drops the peer's copy too.
    gitIn(b, 'fetch', '-q', '--prune', 'origin', FETCH);
    expect((await readBeacons(b, { now })).beacons).toEqual([]);
  });

  it('fails softly on an unreachable remote and on a remote that hangs', async () => {
    const missing = await publishBeacon(a, `${root}/no-such-remote.git`, beacon, { timeoutMs: 15_000 });
    expect(missing.ok).toBe(false);
    expect(['unreachable', 'failed']).toContain(missing.reason);
    expect(await publishBeacon(a, '--upload-pack=touch /tmp/x', beacon)).toMatchObject({ ok: false, reason: 'invalid-remote' });

    // The remote hangs for 2 minutes, twice this test's timeout: returning at all proves the
    // publish gave up on its own 700 ms budget. No clock is read.
    gitIn(a, 'config', 'core.sshCommand', 'sleep 120; :');
    const hung = await publishBeacon(a, 'ssh://example.invalid/repo.git', beacon, { timeoutMs: 700 });
    expect(hung).toMatchObject({ ok: false, reason: 'timeout' });
  });
});
