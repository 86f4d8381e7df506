import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectAirspace, type CollectOptions } from '../../src/traffic/collect-airspace.js';
import { gitIn, initRepo, removeDir, tempDir, testEnv, userStateFingerprint, writeFiles } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

const PEERS = 200;
const AT = Date.parse('2026-06-01T00:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const lines = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join('');
const options: CollectOptions = { remote: 'origin', include: [], exclude: ['wip/**'], maxAgeDays: 30, at: AT, ignore: () => false };

/** One fast-import stream: 200 peer branches (one commit each) plus a stale, a merged and a wip branch. */
function peerStream(mainSha: string): string {
  const out: string[] = [];
  const commit = (ref: string, when: number, subject: string, file: string, content: string, from = mainSha): void => {
    out.push(
      `commit ${ref}`,
      `committer Peer <peer@example.invalid> ${Math.floor(when / 1000)} +0000`,
      `data ${Buffer.byteLength(subject)}`,
      subject,
      `from ${from}`,
    );
    out.push(`M 100644 inline ${file}`, `data ${Buffer.byteLength(content)}`, content, '');
  };
  for (let i = 1; i <= PEERS; i++) {
    const id = String(i).padStart(3, '0');
    // Every tenth peer also edits the shared file, at its own line.
    if (i % 10 === 0)
      commit(`refs/heads/peer/${id}`, AT - i * 60_000, `peer ${id} shared`, 'shared.txt', lines(40).replace(`line ${i / 10}\n`, `peer ${id}\n`));
    else commit(`refs/heads/peer/${id}`, AT - i * 60_000, `peer ${id}`, `src/peer-${id}.txt`, `${id}\n`);
  }
  commit('refs/heads/stale/old', AT - 400 * DAY, 'old work', 'old.txt', 'old\n');
  commit('refs/heads/wip/skip-me', AT - DAY, 'wip', 'wip.txt', 'wip\n');
  out.push(`reset refs/heads/merged/done`, `from ${mainSha}`, '');
  return `${out.join('\n')}\n`;
}

let root = '';
let clone = '';

beforeAll(() => {
  root = tempDir();
  const seed = join(root, 'seed');
  mkdirSync(seed);
  initRepo({ 'shared.txt': lines(40), 'README.md': '# x\n' }, seed);
  const remote = join(root, 'remote.git');
  gitIn(root, 'init', '-q', '--bare', '-b', 'main', remote);
  gitIn(seed, 'push', '-q', remote, 'main');
  const main = gitIn(seed, 'rev-parse', 'HEAD');
  execFileSync('git', ['fast-import', '--quiet'], { cwd: remote, env: testEnv(), input: peerStream(main) });
  clone = join(root, 'clone');
  gitIn(root, 'clone', '-q', remote, clone);
  gitIn(clone, 'switch', '-q', '-c', 'feature/me');
  writeFiles(clone, { 'shared.txt': lines(40).replace('line 3\n', 'mine\n') });
});
afterAll(() => removeDir(root));

describe('remote branches are traffic', () => {
  it(`discovers ${PEERS} peer branches in one pass and compares each with the ownship`, async () => {
    const before = userStateFingerprint(clone);
    const started = performance.now();
    const scan = await collectAirspace(clone, options);
    const total = Math.round(performance.now() - started);
    console.log(
      `[git-peer-branches] ${PEERS} peers: discovery ${scan.scanned.timings.discoveryMs} ms, pairs ${scan.scanned.timings.pairsMs} ms, total ${total} ms`,
    );
    expect(userStateFingerprint(clone)).toBe(before);

    expect(scan.traffic).toHaveLength(PEERS);
    expect(scan.traffic.every((line) => line.kind === 'branch' && line.id.startsWith('peer/'))).toBe(true);
    // Stale (age), wip (exclude glob), merged (no work outside the trunk) and the trunk are not traffic.
    expect(scan.scanned.remoteBranches).toEqual({ considered: PEERS + 1, active: PEERS });
    expect(scan.scanned.trunk).toBe('refs/remotes/origin/main');
    expect(scan.unknown).toEqual([]);
    expect(scan.pairs).toHaveLength(PEERS);

    const peer = scan.traffic.find((line) => line.id === 'peer/020')!;
    expect(peer).toMatchObject({ subjects: ['peer 020 shared'], facts: { committedWork: 1, startedAt: Math.floor((AT - 20 * 60_000) / 1000) * 1000 } });
    const pair = scan.pairs.find((entry) => entry.b === 'peer/020')!;
    expect(pair.workingSetA.files).toMatchObject([{ file: 'shared.txt', ranges: [[3, 4]], origin: 'uncommitted' }]);
    expect(pair.workingSetB.files).toMatchObject([{ file: 'shared.txt', ranges: [[2, 3]], origin: 'committed' }]);
  });

  it('include globs and max age narrow the traffic', async () => {
    const scan = await collectAirspace(clone, { ...options, include: ['peer/00*', 'stale/**'], maxAgeDays: 1000 });
    expect(scan.traffic.map((line) => line.id)).toEqual([...Array.from({ length: 9 }, (_, i) => `peer/00${i + 1}`), 'stale/old']);
  });

  it('explicit NAME=REV agents replace discovery; an unknown revision is reported, not dropped', async () => {
    gitIn(clone, 'tag', 'v-peer', 'origin/peer/007');
    const sha = gitIn(clone, 'rev-parse', 'origin/peer/010');
    const scan = await collectAirspace(clone, { ...options, agents: ['alice=origin/peer/005', 'bob=v-peer', `carol=${sha}`, 'dave=does-not-exist'] });
    gitIn(clone, 'tag', '-d', 'v-peer');
    expect(scan.traffic.map((line) => [line.id, line.kind])).toEqual([
      ['alice', 'revision'],
      ['bob', 'revision'],
      ['carol', 'revision'],
    ]);
    expect(scan.unknown).toEqual([{ id: 'dave', reason: expect.stringContaining('does-not-exist') }]);
    expect(scan.pairs.map((pair) => pair.b)).toEqual(['alice', 'bob', 'carol']);
  });

  it('pairs: all compares every pair of agents', async () => {
    const scan = await collectAirspace(clone, { ...options, agents: ['x=origin/peer/001', 'y=origin/peer/002'], pairs: 'all' });
    expect(scan.pairs.map((pair) => `${pair.a}|${pair.b}`)).toEqual(['feature/me|x', 'feature/me|y', 'x|y']);
  });
});
