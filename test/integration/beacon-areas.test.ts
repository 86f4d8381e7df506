import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areaKey } from '../../src/beacon/beacon-areas.js';
import { readBeacons } from '../../src/beacon/read-beacons.js';
import { floodBeacons } from '../helpers/beacon-flood.js';
import { gitIn, remoteWithClones, removeDir, runCli, testEnv, writeFiles } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

/**
 * Issue 27: beacons addressed by where they work (docs/decisions/beacon-areas.md). A peer's beacon
 * in the pushing agent's area (`src/engine`) is planted among 275 others: 150 in another area, 55
 * legacy refs on its very file and newer than it (an older release's flood, which hid it before),
 * and 70 in the same area dated five minutes ahead (valid: inside the clock skew). The planted peer is always read and its collision reported;
 * with the legacy refs off, nothing of the other area is even listed or downloaded.
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const OTHER_AREA = 150;
// Dated after alice and within a minute of now (so ranked as past, not future): more than the window of 50.
const LEGACY = 55;
const FUTURE = 70;
const roots: string[] = [];

interface Link {
  readonly a: string;
  readonly b: string;
  readonly level: string;
}

interface Report {
  readonly links: Link[];
  readonly scanned: { skipped: string[]; peers: { beacons: number } };
}

afterAll(() => roots.forEach(removeDir));

function plantedAmongOthers(legacyRefs: 'read' | 'off'): { me: string; remote: string } {
  const setup = remoteWithClones({ 'src/engine/session.ts': numbered(40), 'src/engine/other.ts': numbered(5), 'docs/guide.md': numbered(5) }, 2);
  roots.push(setup.root);
  const [me, alice] = setup.clones as [string, string];
  const base = gitIn(me, 'rev-parse', 'HEAD');
  const now = Math.floor(Date.now() / 1000);
  floodBeacons(setup.remote, {
    prefix: `refs/airspace/areas/${areaKey('docs')}/`,
    agentPrefix: 'docs-',
    count: OTHER_AREA,
    base,
    file: 'docs/guide.md',
    startSeconds: now - 600,
  });
  floodBeacons(setup.remote, {
    prefix: `refs/airspace/areas/${areaKey('src/engine')}/`,
    agentPrefix: 'future-',
    count: FUTURE,
    base,
    file: 'src/engine/other.ts',
    startSeconds: now + 300,
  });
  gitIn(alice, 'switch', '-q', '-c', 'alice/work');
  writeFiles(alice, { 'src/engine/session.ts': numbered(40).replace('line 7\n', 'line 7 alice\n') });
  const published = runCli(alice, ['beacon', 'publish']);
  expect(published.status, published.stderr).toBe(0);
  // Newer than alice and on her very file: before areas, these filled the newest-50 window and hid her.
  const after = Math.floor(Date.now() / 1000) + 1;
  floodBeacons(setup.remote, {
    prefix: 'refs/airspace/beacons/',
    agentPrefix: 'legacy-',
    count: LEGACY,
    base,
    file: 'src/engine/session.ts',
    startSeconds: after,
  });
  gitIn(me, 'switch', '-q', '-c', 'me/work');
  writeFiles(me, { 'src/engine/session.ts': numbered(40).replace('line 7\n', 'line 7 me\n') });
  // `read` is the default. Not committed: the configuration is read from the worktree (and sits in area `.`).
  if (legacyRefs === 'off') writeFileSync(join(me, '.airspacerc.json'), JSON.stringify({ beacons: { legacyRefs } }));
  return { me, remote: setup.remote };
}

function withAlice(report: Report): Link | undefined {
  return report.links.find((l) => (l.a === 'me/work' && l.b === 'alice/work') || (l.b === 'me/work' && l.a === 'alice/work'));
}

describe('beacons addressed by area', () => {
  let cases: Record<'read' | 'off', { me: string; remote: string }>;
  beforeAll(() => {
    cases = { read: plantedAmongOthers('read'), off: plantedAmongOthers('off') };
  }, 180_000);

  for (const legacyRefs of ['read', 'off'] as const) {
    it(`a peer in the pushing agent's area is read and its collision reported (legacyRefs: ${legacyRefs})`, () => {
      const { me } = cases[legacyRefs];
      const result = runCli(me, ['check', '--fetch', '--json']);
      const report = JSON.parse(result.stdout) as Report;
      expect(withAlice(report), JSON.stringify(report.links.slice(0, 3))).toMatchObject({ level: 'RA' });
      // Every beacon of the area is read (alice and the future-dated ones); the legacy window gets no slot left.
      expect(report.scanned.peers.beacons).toBe(1 + FUTURE);
    });
  }

  it('lists and fetches only its own areas: the other area is never listed nor downloaded', () => {
    const { me, remote } = cases.off;
    const fetchedAreas = new Set(
      gitIn(me, 'for-each-ref', '--format=%(refname)', 'refs/airspace/remote/')
        .split('\n')
        .map((ref) => ref.split('/')[4]),
    );
    // `src/engine` (the work), `.` (the configuration file) and the wide area: listed, even when empty.
    expect([...fetchedAreas].every((key) => [areaKey('src/engine'), areaKey('.'), areaKey('*')].includes(key!))).toBe(true);
    expect(fetchedAreas.has(areaKey('src/engine'))).toBe(true);
    const otherArea = gitIn(remote, 'rev-parse', `refs/airspace/areas/${areaKey('docs')}/docs-0`);
    const legacy = gitIn(remote, 'rev-parse', 'refs/airspace/beacons/legacy-0');
    for (const sha of [otherArea, legacy]) expect(() => gitIn(me, 'cat-file', '-e', sha)).toThrow();
  });

  it('a flood inside the area beyond its bound keeps the past-dated peer ahead of the future-dated refs', async () => {
    const { me } = cases.off;
    const read = await readBeacons(me, { now: Date.now(), maxAreaBeacons: 10 });
    expect(read.beacons.map((b) => b.agent)).toContain('alice/work');
    expect(read.beacons).toHaveLength(10);
    expect(read.skipped.filter((s) => s.reason === 'too-many' || s.reason === 'too-many-in-areas')).toEqual([
      { ref: 'refs/airspace/remote/areas/*', reason: 'too-many-in-areas', detail: String(1 + FUTURE - 10) },
    ]);
  });
});
