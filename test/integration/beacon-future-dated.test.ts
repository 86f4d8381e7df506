import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { floodBeacons } from '../helpers/beacon-flood.js';
import { gitIn, remoteWithClones, removeDir, runCli, testEnv, writeFiles } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

/**
 * Issue 24, item 3: 60 beacon refs dated five minutes ahead pushed a real beacon out of the
 * newest-50 window, and the RA against the real peer vanished. No date may buy a place
 * (src/beacon/read-beacons.ts, "Who is kept"): with the junk on another file and on the very file
 * the two agents share, the RA against the real peer is still there.
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const JUNK = 60;
const roots: string[] = [];

interface Link {
  readonly a: string;
  readonly b: string;
  readonly level: string;
}

afterAll(() => roots.forEach(removeDir));

function airspaceWithJunk(junkFile: string): { me: string } {
  const setup = remoteWithClones({ 'docs/session.txt': numbered(40), 'docs/other.txt': numbered(5) }, 2);
  roots.push(setup.root);
  const [me, alice] = setup.clones as [string, string];
  const base = gitIn(me, 'rev-parse', 'HEAD');
  // Dated five minutes ahead: inside the accepted clock skew (10 min), so every one of them is valid.
  floodBeacons(setup.remote, { prefix: 'refs/airspace/beacons/', count: JUNK, base, file: junkFile, startSeconds: Math.floor(Date.now() / 1000) + 300 });
  gitIn(alice, 'switch', '-q', '-c', 'alice/work');
  writeFiles(alice, { 'docs/session.txt': numbered(40).replace('line 7\n', 'line 7 alice\n') });
  const published = runCli(alice, ['beacon', 'publish']);
  expect(published.status, published.stderr).toBe(0);
  gitIn(me, 'switch', '-q', '-c', 'me/work');
  writeFiles(me, { 'docs/session.txt': numbered(40).replace('line 7\n', 'line 7 me\n') });
  return { me };
}

describe('beacon refs dated in the future', () => {
  let cases: { name: string; me: string }[];
  beforeAll(() => {
    cases = [
      { name: 'junk on another file', ...airspaceWithJunk('docs/other.txt') },
      { name: 'junk on the shared file', ...airspaceWithJunk('docs/session.txt') },
    ];
  }, 120_000);

  for (const index of [0, 1]) {
    it(`cannot hide a real peer (${index === 0 ? 'junk on another file' : 'junk on the shared file'})`, () => {
      const { me } = cases[index]!;
      const result = runCli(me, ['check', '--fetch', '--json']);
      const report = JSON.parse(result.stdout) as { links: Link[]; scanned: { skipped: string[]; peers: { beacons: number } } };
      const withAlice = report.links.find((l) => (l.a === 'me/work' && l.b === 'alice/work') || (l.b === 'me/work' && l.a === 'alice/work'));
      expect(withAlice, JSON.stringify(report.links.slice(0, 3))).toMatchObject({ level: 'RA' });
      // The window still holds: at most 50 kept, the rest in one line.
      expect(report.scanned.peers.beacons).toBeLessThanOrEqual(50);
      expect(report.scanned.skipped.filter((line) => line.includes('were not read'))).toHaveLength(1);
    });
  }
});
