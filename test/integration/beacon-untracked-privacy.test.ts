import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedClones } from '../helpers/copied-clones.js';
import { commitAll, gitIn, pathWithCli, remoteWithClones, removeDir, runCli, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * What leaves the machine with a beacon: an untracked, non-ignored `.env.local` holding a secret is
 * listed by name in the beacon JSON, but its content never reaches the shared remote — no object a
 * peer fetches with the beacon holds it. Tracked uncommitted edits still travel (the documented
 * trade-off), and `beacons.shareUntracked: true` is the one way to send untracked content.
 */
const SECRET = 'AIRSPACE_TEST_SECRET_7f3a9c1e';

let root: string;
let alice: string;
let bob: string;

beforeAll(() => {
  const setup = remoteWithClones({ 'src/app.ts': 'export const a = 1;\n', 'README.md': '# x\n' }, 2);
  root = setup.root;
  [alice, bob] = setup.clones as [string, string];
  gitIn(alice, 'switch', '-q', '-c', 'alice/work');
});

afterAll(() => removeDir(root));

/** The one fetched beacon ref's name below refs/airspace/remote/beacons/. */
function beaconComponent(reader = bob): string {
  return gitIn(reader, 'for-each-ref', '--format=%(refname)', 'refs/airspace/remote/beacons/').trim().slice('refs/airspace/remote/beacons/'.length);
}

/** Every object bob fetched under refs/airspace/*, as text: trees listed recursively, blobs printed. */
function fetchedBeaconText(reader = bob): { text: string; beaconJson: string } {
  gitIn(reader, 'fetch', '-q', 'origin', '+refs/airspace/*:refs/airspace/remote/*');
  // One beacon commit, under its legacy ref and one ref per area (docs/decisions/beacon-areas.md).
  const refs = [...new Set(gitIn(reader, 'for-each-ref', '--format=%(objectname)', 'refs/airspace/remote/').trim().split('\n').filter(Boolean))];
  expect(refs.length).toBe(1);
  const objects = gitIn(reader, 'rev-list', '--objects', ...refs, '--not', 'origin/main')
    .trim()
    .split('\n')
    .map((line) => line.split(' ')[0]!);
  let text = '';
  for (const object of objects) {
    const type = gitIn(reader, 'cat-file', '-t', object).trim();
    if (type === 'blob') text += gitIn(reader, 'cat-file', 'blob', object);
  }
  const beaconJson = gitIn(reader, 'cat-file', 'blob', `${refs[0]}:beacon.json`);
  return { text, beaconJson };
}

describe('an untracked file stays on the machine when its beacon is published', () => {
  it('publishes the name, never the content, and says so', () => {
    writeFiles(alice, { '.env.local': `TOKEN=${SECRET}\n`, 'src/app.ts': 'export const a = 2;\n', 'src/staged.ts': 'export const staged = true;\n' });
    gitIn(alice, 'add', 'src/staged.ts');
    const published = runCli(alice, ['beacon', 'publish']);
    expect(published.status, published.stderr).toBe(0);
    expect(published.stdout).toMatch(/1 untracked file shared by name only/);

    const { text, beaconJson } = fetchedBeaconText();
    expect(text).not.toContain(SECRET);
    expect(beaconJson).toContain('.env.local');
    // The tracked edit still travels with the beacon (the merge channel's input).
    expect(text).toContain('export const a = 2;');
    // A new file the user staged was chosen to share: it travels.
    expect(text).toContain('export const staged = true;');
    // git grep over the beacon's work commit, as a curious peer would run it: no match (exit 1).
    const work = gitIn(bob, 'rev-parse', `refs/airspace/remote/beacons/${beaconComponent()}^1`).trim();
    const grep = spawnSync('git', ['grep', '-I', SECRET, work, '--'], { cwd: bob, encoding: 'utf8' });
    expect(grep.status, grep.stdout).toBe(1);
  });

  it('a committed file the user untracked (`git rm --cached`) and then changed keeps its new content home', () => {
    writeFiles(alice, { 'config.env': 'TOKEN=old\n' });
    gitIn(alice, 'add', 'config.env');
    gitIn(alice, 'commit', '-q', '-m', 'oops: a committed env file');
    gitIn(alice, 'rm', '-q', '--cached', 'config.env');
    writeFiles(alice, { 'config.env': `TOKEN=${SECRET}-rotated\n` });
    const published = runCli(alice, ['beacon', 'publish']);
    expect(published.status, published.stderr).toBe(0);
    expect(fetchedBeaconText().text).not.toContain(`${SECRET}-rotated`);
  });

  it('beacons.shareUntracked: true sends the content too, as configured', () => {
    writeFiles(alice, { '.airspacerc.json': JSON.stringify({ beacons: { shareUntracked: true } }) });
    const published = runCli(alice, ['beacon', 'publish']);
    expect(published.status, published.stderr).toBe(0);
    expect(published.stdout).not.toMatch(/by name only/);
    expect(fetchedBeaconText().text).toContain(SECRET);
  });
});

describe("pre-push's beacon publish", () => {
  it('leaves an untracked secret on the machine too', () => {
    const PATH = pathWithCli();
    const fixture = installedClones({ 'src/app.ts': 'export const a = 1;\n' }, 2, PATH);
    try {
      const [one, two] = fixture.clones as [string, string];
      gitIn(one, 'switch', '-q', '-c', 'one/work');
      writeFiles(one, { 'src/app.ts': 'export const a = 3;\n' });
      commitAll(one, 'one: a = 3');
      writeFiles(one, { '.env.local': `TOKEN=${SECRET}\n`, 'src/app.ts': 'export const a = 4;\n' });
      const pushed = spawnSync('git', ['push', '-q', '-u', 'origin', 'one/work'], { cwd: one, env: testEnv({ PATH }), encoding: 'utf8', timeout: 120_000 });
      expect(pushed.status, pushed.stderr).toBe(0);
      const { text, beaconJson } = fetchedBeaconText(two);
      // pre-push judges the pushed commits, so its beacon is that work (the commit), not the worktree:
      // the secret must not travel with it either way (a guard: this held on main too).
      expect(JSON.parse(beaconJson).agent).toBe('one/work');
      expect(text).toContain('export const a = 3;');
      expect(text).not.toContain(SECRET);
    } finally {
      removeDir(fixture.root);
    }
  }, 60_000);
});
