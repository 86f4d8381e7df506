import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAgentId } from '../../src/beacon/agent-ref.js';
import { publishBeacon } from '../../src/beacon/publish-beacon.js';
import { readBeacons, type ReadBeaconsResult } from '../../src/beacon/read-beacons.js';
import { gitIn, remoteWithClones, removeDir, testEnv, userStateFingerprint } from '../helpers/temp-repo.js';
import { makeBeacon } from '../unit/beacon/beacon-fixture.js';

/** Writes an object into the bare remote as a peer's git would, bypassing our publisher. */
function gitInput(cwd: string, args: string[], input: string | Buffer): string {
  const result = spawnSync('git', args, { cwd, env: testEnv(), input });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr.toString()}`);
  return result.stdout.toString().trim();
}

/**
 * Hostile beacon commits, each a one-file tree (`beacon.json`) on its own ref, all written by ONE
 * `git fast-import` into the bare remote (a hash-object, mktree, commit-tree and update-ref per
 * beacon cost 60 git processes): the objects and refs a peer's git would push.
 */
function plantCommits(remote: string, plants: readonly (readonly [ref: string, content: string | Buffer])[], now: number): void {
  const ident = `Test Agent <agent@example.invalid> ${Math.floor(now / 1000)} +0000`;
  const chunks = plants.flatMap(([ref, content]) => {
    const body = Buffer.from(content);
    return [Buffer.from(`commit ${ref}\ncommitter ${ident}\ndata 8\nhostile\nM 100644 inline beacon.json\ndata ${body.length}\n`), body, Buffer.from('\n')];
  });
  gitInput(remote, ['fast-import', '--quiet', '--done'], Buffer.concat([...chunks, Buffer.from('done\n')]));
}

const at = (name: string): string => `refs/airspace/beacons/${name}`;

describe('beacon: hostile beacons on the remote are skipped, the good one is still read', () => {
  let root: string;
  let peer: string;
  let result: ReadBeaconsResult;
  const now = Date.now();
  // Nothing pushed yet: an honest beacon without commits claims no right-of-way facts.
  const good = makeBeacon({ agent: 'alice', branch: 'alice', updatedAt: now, committedWork: 0, startedAt: null });
  const json = (over: Record<string, unknown>, agent = 'x'): string => JSON.stringify({ ...good, agent, ...over });
  const skippedFor = (name: string) => result.skipped.find((s) => s.ref === `refs/airspace/remote/beacons/${name}`);

  beforeAll(async () => {
    const setup = remoteWithClones({ 'README.md': '# demo\n' });
    root = setup.root;
    const [publisher = '', reader = ''] = setup.clones;
    peer = reader;
    const remote = setup.remote;
    expect((await publishBeacon(publisher, 'origin', good, { timeoutMs: 15_000 })).ok).toBe(true);

    const evilId = 'evil\u001b]0;pwned\u0007\u001b[2J';
    plantCommits(
      remote,
      [
        [at('huge'), `{"schema":1,"agent":"huge","pad":"${'x'.repeat(2 * 1024 * 1024)}"}`],
        [at('malformed'), '{"schema":1,"agent":"malformed",'],
        [at('binary'), Buffer.from([0xff, 0xfe, 0x00, 0x1b])],
        [at(encodeAgentId(evilId)), json({}, evilId)],
        // Valid ref names may carry raw bytes ≥ 0x80 (here U+202E and U+009B): the name is untrusted text.
        [at('rtl\u202e\u009b'), json({}, 'rtl\u202e\u009b')],
        [at('escape-path'), json({ workingSet: { base: good.base, files: [{ file: 'src/\u001b[31mred.ts', status: 'M' }] } }, 'escape-path')],
        [at('dotdot'), json({ workingSet: { base: good.base, files: [{ file: '../../../etc/passwd', status: 'M' }] } }, 'dotdot')],
        [at('absolute'), json({ intent: ['/etc/shadow'] }, 'absolute')],
        [at('types'), json({ committedWork: '9999', workingSet: { base: good.base, files: 'all' } }, 'types')],
        [at('v2'), json({ schema: 2 }, 'v2')],
        [at('mallory'), json({}, 'alice')],
        [at('nested/deep'), json({}, 'nested/deep')],
        [at('stale'), json({ updatedAt: now - 7 * 24 * 3_600_000 }, 'stale')],
        [at('future'), json({ updatedAt: now + 365 * 24 * 3_600_000 }, 'future')],
        // Ids and branches must be visible names (issue 24: an id of one space sorted before everyone).
        [at(encodeAgentId(' ')), json({}, ' ')],
        [at(encodeAgentId(' padded ')), json({}, ' padded ')],
        [at(encodeAgentId('ali\u200bce')), json({}, 'ali\u200bce')],
        [at(encodeAgentId('tab\tbed')), json({}, 'tab\tbed')],
        [at('blank-branch'), json({ branch: '\u3000' }, 'blank-branch')],
      ],
      now,
    );
    // A tree instead of a commit, and a bare blob ref holding a valid beacon (accepted).
    gitIn(remote, 'update-ref', at('tree'), gitInput(remote, ['mktree'], ''));
    gitIn(remote, 'update-ref', at('bob'), gitInput(remote, ['hash-object', '-w', '--stdin'], json({ branch: 'bob' }, 'bob')));

    gitIn(peer, 'fetch', '-q', 'origin', '+refs/airspace/*:refs/airspace/remote/*');
    const before = userStateFingerprint(peer);
    result = await readBeacons(peer, { now });
    expect(userStateFingerprint(peer)).toBe(before);
  });
  afterAll(() => removeDir(root));

  it('reads the good beacons', () => {
    expect(result.beacons.map((b) => b.agent).sort()).toEqual(['alice', 'bob']);
    expect(result.beacons.find((b) => b.agent === 'alice')).toEqual(good);
  });

  it.each([
    ['huge', 'too-large'],
    ['malformed', 'malformed-json'],
    ['binary', 'malformed-json'],
    [encodeAgentId('evil\u001b]0;pwned\u0007\u001b[2J'), 'invalid'],
    ['rtl\u202e\u009b', 'invalid'],
    ['escape-path', 'invalid'],
    ['dotdot', 'invalid'],
    ['absolute', 'invalid'],
    ['types', 'invalid'],
    ['v2', 'unknown-version'],
    ['mallory', 'id-mismatch'],
    ['nested/deep', 'id-mismatch'],
    ['stale', 'expired'],
    ['future', 'future'],
    ['tree', 'not-a-beacon'],
    [encodeAgentId(' '), 'invalid'],
    [encodeAgentId(' padded '), 'invalid'],
    [encodeAgentId('ali\u200bce'), 'invalid'],
    [encodeAgentId('tab\tbed'), 'invalid'],
    ['blank-branch', 'invalid'],
  ])('skips %j with reason %s', (name, reason) => {
    expect(skippedFor(name)?.reason).toBe(reason);
  });

  it('accounts for every ref exactly once', () => {
    expect(result.beacons.length + result.skipped.length).toBe(22);
    expect(skippedFor('huge')?.detail).toMatch(/^\d{7}$/);
  });

  it('reads all 22 refs with three git processes, none per beacon', async () => {
    const trace = join(root, 'trace2.json');
    process.env.GIT_TRACE2_EVENT = trace;
    try {
      await readBeacons(peer, { now });
    } finally {
      delete process.env.GIT_TRACE2_EVENT;
    }
    const starts = readFileSync(trace, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"event":"start"'))
      .map((line) => (JSON.parse(line) as { argv: string[] }).argv.find((arg) => ['for-each-ref', 'cat-file'].includes(arg)));
    expect(starts).toEqual(['for-each-ref', 'cat-file', 'cat-file']);
  });

  it('a smaller configured size limit skips beacons before reading them', async () => {
    const small = await readBeacons(peer, { now, maxBytes: 64 });
    expect(small.beacons).toEqual([]);
    expect(small.skipped.find((s) => s.ref.endsWith('/alice'))?.reason).toBe('too-large');
  });
});
