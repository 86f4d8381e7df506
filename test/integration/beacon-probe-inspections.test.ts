import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areaKey } from '../../src/beacon/beacon-areas.js';
import { readBeacons } from '../../src/beacon/read-beacons.js';
import { fetchBeacons } from '../../src/git/fetch-beacons.js';
import { gitIn, initEmptyRepo, removeDir, tempDir, testEnv } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

/**
 * A selective listing's probe (src/git/fetch-beacons.ts, inspectProbe) is asked three things at
 * once: which listed ids the store held already, each beacon.json's size, and whether the filtered
 * pack left anything out. Each answer is asked of every listed id, so each must still hold for the
 * ids kept. One area of many beacons, each on its own published work, and among them: a planted
 * peer (always read), an oversized beacon.json (refused, never in the store), a beacon whose work
 * holds a blob over the limit (the filter leaves it out: the accepted ids are fetched again whole,
 * and the store ends complete), and our own beacon, pushed from this clone (in the store already:
 * its ref is written, nothing fetched for it). On a remote that honours filters and on one that
 * does not (a plain path), cold then warm.
 */
const MAX_BYTES = 4096;
const FLOOD = 150;
const AREA = 'src/app';
const PREFIX = `refs/airspace/areas/${areaKey(AREA)}/`;
const FILE = `${AREA}/session.ts`;
const roots: string[] = [];
let remote: string;
let seed: string;
let oversizedBlob: string;
let oversizedRef: string;
let oversizedCommit: string;
let bigBlob: string;

const text = (n: number, tag = ''): string => `${Array.from({ length: n }, (_, i) => `line ${i + 1}${i === 4 ? tag : ''}`).join('\n')}\n`;
const data = (content: string): string => `data ${Buffer.byteLength(content)}\n${content}\n`;
const cloneId = (i: number): string => i.toString(16).padStart(10, '0');

function beaconJson(agent: string, clone: string, base: string, seconds: number, pad = ''): string {
  return JSON.stringify({
    schema: 1,
    agent,
    branch: agent,
    head: base,
    base,
    workingSet: { base, files: [{ file: FILE, status: 'M', ranges: [[5, 6]], origin: 'uncommitted', lastEditTime: seconds * 1000 }] },
    intent: [],
    committedWork: 0,
    startedAt: null,
    updatedAt: seconds * 1000,
    clone: { id: clone, machine: `host-${clone.slice(-3)}` },
    ...(pad ? { pad } : {}),
  });
}

beforeAll(() => {
  const root = tempDir('airspace-probe-');
  roots.push(root);
  remote = join(root, 'remote.git');
  seed = join(root, 'seed');
  execFileSync('git', ['init', '-q', '--bare', remote], { env: testEnv() });
  initEmptyRepo(seed);
  const stamp = (seconds: number) => `committer t <t@example.invalid> ${seconds} +0000\n`;
  const base = `commit refs/heads/main\nmark :1\n${stamp(1700000000)}${data('base')}M 100644 inline ${FILE}\n${data(text(40))}\n`;
  execFileSync('git', ['fast-import', '--quiet'], { cwd: seed, input: base, env: testEnv() });
  const baseSha = gitIn(seed, 'rev-parse', 'main');
  const now = Math.floor(Date.now() / 1000);
  const chunks: string[] = [];
  let mark = 2;
  const beacon = (agent: string, clone: string, seconds: number, work: string, pad = ''): void => {
    const workMark = mark++;
    chunks.push(`commit refs/seed/work\nmark :${workMark}\n${stamp(seconds)}${data('snapshot')}from ${baseSha}\n${work}\n`);
    chunks.push(
      `commit ${PREFIX}${clone}/${agent}\nmark :${mark++}\n${stamp(seconds)}${data('airspace-hooks beacon')}from :${workMark}\ndeleteall\nM 100644 inline beacon.json\n${data(beaconJson(agent, clone, baseSha, seconds, pad))}\n`,
    );
  };
  const edit = (tag: string): string => `M 100644 inline ${FILE}\n${data(text(40, ` ${tag}`))}`;
  for (let i = 0; i < FLOOD; i++) beacon(`peer-${i}`, cloneId(i + 1), now - 3600 + i, edit(`peer-${i}`));
  beacon('planted', cloneId(9000), now - 1800, edit('planted'));
  beacon('oversized', cloneId(9001), now - 60, edit('oversized'), 'x'.repeat(MAX_BYTES));
  beacon('heavy', cloneId(9002), now - 30, `${edit('heavy')}M 100644 inline assets/big.bin\n${data('y'.repeat(MAX_BYTES + 2000))}`);
  execFileSync('git', ['fast-import', '--quiet'], { cwd: seed, input: chunks.join(''), env: testEnv() });
  gitIn(seed, 'update-ref', '-d', 'refs/seed/work');
  gitIn(seed, 'push', '-q', remote, 'refs/heads/main:refs/heads/main', `+${PREFIX}*:${PREFIX}*`);
  gitIn(remote, 'symbolic-ref', 'HEAD', 'refs/heads/main');
  oversizedRef = `${PREFIX}${cloneId(9001)}/oversized`;
  oversizedCommit = gitIn(seed, 'rev-parse', oversizedRef);
  oversizedBlob = gitIn(seed, 'rev-parse', `${oversizedRef}:beacon.json`);
  bigBlob = gitIn(seed, 'rev-parse', `${PREFIX}${cloneId(9002)}/heavy^:assets/big.bin`);
}, 120_000);

afterAll(() => roots.forEach(removeDir));

const areaRefs = (clone: string): string[] =>
  gitIn(clone, 'for-each-ref', '--format=%(refname)', `refs/airspace/remote/areas/${areaKey(AREA)}/`)
    .split('\n')
    .filter(Boolean);
const has = (clone: string, sha: string): boolean => spawnSync('git', ['cat-file', '-e', sha], { cwd: clone, env: testEnv() }).status === 0;

describe("a selective listing's probe, asked at once", () => {
  // Without the oversized beacon nothing is refused, and only the completeness answer sends the
  // accepted ids again whole (the heavy work's blob).
  for (const [filter, oversized] of [
    [true, true],
    [true, false],
    [false, true],
  ] as const) {
    it(`reads every beacon of the area${oversized ? ', refuses the oversized one,' : ''} and leaves a complete store (${filter ? 'remote honours --filter' : 'plain path remote, no filter'})`, async () => {
      const root = tempDir('airspace-probe-clone-');
      roots.push(root);
      gitIn(remote, 'config', 'uploadpack.allowFilter', String(filter));
      if (oversized) gitIn(remote, 'update-ref', oversizedRef, oversizedCommit);
      else gitIn(remote, 'update-ref', '-d', oversizedRef);
      const refusals = oversized ? 1 : 0;
      const clone = join(root, 'clone');
      // `--no-local`: a plain path clone would otherwise copy the remote's whole object store.
      execFileSync('git', ['clone', '-q', '--no-local', filter ? `file://${remote}` : remote, clone], { env: testEnv() });
      // Our own beacon, published from this clone: in the store, under no ref of ours.
      const baseSha = gitIn(clone, 'rev-parse', 'HEAD');
      const ownJson = beaconJson('me', 'ffffffffff', baseSha, Math.floor(Date.now() / 1000));
      const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: clone, input: ownJson, env: testEnv(), encoding: 'utf8' }).trim();
      const tree = execFileSync('git', ['mktree'], { cwd: clone, input: `100644 blob ${blob}\tbeacon.json\n`, env: testEnv(), encoding: 'utf8' }).trim();
      const own = gitIn(clone, 'commit-tree', tree, '-m', 'airspace-hooks beacon');
      gitIn(clone, 'push', '-q', 'origin', `+${own}:${PREFIX}ffffffffff/me`);

      for (const run of ['cold', 'warm']) {
        const fetched = await fetchBeacons({
          cwd: clone,
          remote: 'origin',
          commonDir: join(clone, '.git'),
          maxBytes: MAX_BYTES,
          timeoutMs: 120_000,
          prefixes: async () => [PREFIX],
        });
        expect(fetched.selective, run).toBe(true);
        expect(fetched.listed, run).toBe(FLOOD + 3 + refusals);
        expect(fetched.refused, run).toBe(refusals);
        const refs = areaRefs(clone);
        expect(refs, run).toHaveLength(FLOOD + 3);
        expect(
          refs.some((ref) => ref.endsWith('.oversized')),
          run,
        ).toBe(false);
        expect(
          refs.some((ref) => ref.endsWith('ffffffffff.me')),
          run,
        ).toBe(true);
        expect(has(clone, oversizedBlob), run).toBe(false);
        // The filter left the heavy work's blob out of the probe: the accepted ids came again whole.
        expect(has(clone, bigBlob), run).toBe(true);
        const fsck = spawnSync('git', ['fsck', '--connectivity-only', '--no-dangling'], { cwd: clone, env: testEnv(), encoding: 'utf8' });
        expect(fsck.status, fsck.stderr).toBe(0);
        const read = await readBeacons(clone, { now: Date.now(), selfClone: 'ffffffffff' });
        const agents = new Set(read.beacons.map((b) => b.agent));
        expect(agents.has('planted'), run).toBe(true);
        expect(agents.has('heavy'), run).toBe(true);
        expect(agents.has('oversized'), run).toBe(false);
        expect(agents.size, run).toBe(FLOOD + 2);
      }
    }, 180_000);
  }
});
