import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBeacons } from '../../src/beacon/read-beacons.js';
import { floodBeacons } from '../helpers/beacon-flood.js';
import { gitIn, remoteWithClones, removeDir, runCli, testEnv, writeFiles } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

/**
 * A beacon flood (issue 15, item 2): 5,000 valid beacon refs and one oversized blob pushed to the
 * shared remote. Only the newest beacons are read (one summary line for the rest), the oversized
 * blob is refused on its size by the fetch and never kept (issue 24, item 2: src/git/fetch-beacons.ts),
 * and an honest peer's fresh beacon still counts.
 */
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const FLOOD = 5000;
let root: string;
let me: string;
let alice: string;

beforeAll(() => {
  const setup = remoteWithClones({ 'docs/session.txt': numbered(40) }, 2);
  root = setup.root;
  [me, alice] = setup.clones as [string, string];
  const base = gitIn(me, 'rev-parse', 'HEAD');
  floodBeacons(setup.remote, {
    prefix: 'refs/airspace/beacons/',
    count: FLOOD,
    base,
    file: 'docs/session.txt',
    startSeconds: Math.floor(Date.now() / 1000) - 3 * 3600,
    oversized: 1,
  });
  gitIn(alice, 'switch', '-q', '-c', 'alice/work');
  writeFiles(alice, { 'docs/session.txt': numbered(40).replace('line 7\n', 'line 7 alice\n') });
  expect(runCli(alice, ['beacon', 'publish']).status).toBe(0);
  gitIn(me, 'switch', '-q', '-c', 'me/work');
  writeFiles(me, { 'docs/session.txt': numbered(40).replace('line 8\n', 'line 8 me\n') });
  // Two clones, 5,001 fast-imported commits and a CLI publish: slow on a busy machine, never stuck.
}, 180_000);

afterAll(() => removeDir(root));

describe('a flood of beacon refs', () => {
  it('check --fetch reads the newest beacons only, says so in one line, and refuses the oversized blob unkept', () => {
    const result = runCli(me, ['check', '--fetch', '--json']);
    const report = JSON.parse(result.stdout);
    expect(report.scanned.fetch.ok).toBe(true);
    const beaconLines = (report.scanned.skipped as string[]).filter((line) => line.includes('beacon'));
    const summary = beaconLines.filter((line) => line.includes('were not read'));
    expect(summary).toHaveLength(1);
    expect(summary[0]).toMatch(
      /^\d+ beacons under refs\/airspace\/remote\/beacons\/\* were not read: seen only under the legacy refs, beyond the window of 50 /,
    );
    expect(beaconLines.length).toBe(1);
    // Refused by the fetch: no local ref, nothing of it in the object store, one line in the stage log.
    expect(gitIn(me, 'for-each-ref', 'refs/airspace/remote/beacons/huge-0')).toBe('');
    expect(report.scanned.stages.find((s: { stage: string }) => s.stage === 'fetch').detail).toMatch(/^1 beacon ref refused: beacon\.json larger than/);
    // The honest, freshest beacon is among those read.
    expect(report.agents.find((a: { id: string }) => a.id === 'alice/work')).toMatchObject({ kind: 'beacon' });
    expect(report.scanned.peers.beacons).toBeLessThanOrEqual(50);
  });

  it('the pre-commit text shows one summary line, not thousands', () => {
    const result = runCli(me, ['check', '--hook', 'pre-commit']);
    expect(result.status).toBe(0);
    const output = result.stdout + result.stderr;
    expect(output.split('\n').filter((line) => line.includes('beacon')).length).toBeLessThanOrEqual(3);
  });

  it('readBeacons takes the newest first and counts the rest', async () => {
    const read = await readBeacons(me, { now: Date.now(), maxBeacons: 10 });
    expect(read.beacons).toHaveLength(10);
    expect(read.beacons[0]!.agent).toBe('alice/work');
    // The oversized blob never arrived (refused by the fetch): the ten are alice and the newest flood.
    expect(read.skipped.find((s) => s.ref.endsWith('huge-0'))).toBeUndefined();
    expect(read.beacons.slice(1).map((b) => b.agent)).toEqual(Array.from({ length: 9 }, (_, i) => `flood-${FLOOD - 1 - i}`));
    expect(read.skipped.filter((s) => s.reason === 'too-many')).toEqual([
      { ref: 'refs/airspace/remote/beacons/*', reason: 'too-many', detail: String(FLOOD + 1 - 10) },
    ]);
  });
});
