import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FETCHED_BEACON_REFS } from '../../src/beacon/read-beacons.js';
import { listRefs } from '../../src/git/list-refs.js';
import { commitAll, gitIn, remoteWithClones, removeDir, runCli, tempDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * Each git process of a CLI or hook run costs a fork of the Node process on its main thread and a
 * git start-up (docs/decisions/hook-performance.md, "Fewer git processes per run"). These runs
 * are traced with GIT_TRACE2_EVENT and must not ask git what the run already knows:
 * - the fetch stamp's common dir (openRepository's rev-parse printed it);
 * - whether a beacon's base commit is here, when it is the ownship's own HEAD;
 * - the ownship's working set against a base it was already computed against (pre-push drafted
 *   its own beacon against the same trunk merge-base a beacon-only peer's pair used);
 * - the fetched beacon refs in a second `for-each-ref`: the branches' listing includes them;
 * - one process per object read: every `info`/`contents` request of a run (beacon sizes and bodies,
 *   the symbol channel's file versions, whether a beacon's base is here) goes to the run's one
 *   `cat-file --batch-command` (src/git/object-session.ts).
 * Situation: two clones of a bare remote; ada publishes a beacon of uncommitted work on her
 * branch (never pushed), bo has uncommitted work of his own.
 */
const module = (name: string, body: string): string => `export function ${name}(x: number): number {\n  return ${body};\n}\n`;

let root: string;
let ada: string;
let bo: string;
let remote: string;
let scratch: string;

beforeAll(() => {
  const setup = remoteWithClones({ 'src/a.ts': module('a', 'x + 1'), 'src/b.ts': module('b', 'x + 2'), 'src/c.ts': module('c', 'x + 3') }, 2);
  root = setup.root;
  remote = setup.remote;
  [ada, bo] = setup.clones as [string, string];
  scratch = tempDir('airspace-git-processes-');
  gitIn(ada, 'switch', '-q', '-c', 'ada');
  gitIn(bo, 'switch', '-q', '-c', 'bo');
  writeFiles(ada, { 'src/a.ts': module('a', 'x + 10') });
  const published = runCli(ada, ['beacon', 'publish']);
  expect(published.status, published.stderr).toBe(0);
  writeFiles(bo, { 'src/b.ts': module('b', 'x * 2'), 'src/d.ts': module('d', 'x') });
});

afterAll(() => {
  for (const dir of [root, scratch]) removeDir(dir);
});

/** The git processes the CLI itself started (trace2 session ids without a parent), `-c` pairs left out. */
function gitProcesses(trace: string): string[] {
  return readFileSync(trace, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"event":"start"'))
    .map((line) => JSON.parse(line) as { sid: string; argv: string[] })
    .filter((event) => !event.sid.includes('/'))
    .map((event) => {
      const words: string[] = [];
      for (let i = 1; i < event.argv.length; i++) {
        if (event.argv[i] === '-c') i++;
        else words.push(event.argv[i]!);
      }
      return words.join(' ');
    });
}

describe('git processes of one run', () => {
  it('check --fetch: one rev-parse, no cat-file -e for a beacon based on our HEAD', () => {
    const trace = join(scratch, 'check.json');
    const result = runCli(bo, ['check', '--fetch', '--json'], { GIT_TRACE2_EVENT: trace });
    expect(result.status, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { links: { a: string; b: string }[]; agents: { id: string }[] };
    // ada is seen through her beacon alone (her branch was never pushed) and compared with bo.
    expect(report.links.map((link) => [link.a, link.b].sort().join(' '))).toEqual(['ada bo']);
    const processes = gitProcesses(trace);
    expect(processes.filter((argv) => argv.startsWith('rev-parse '))).toHaveLength(1);
    // The branches, then ada's new beacon by id (src/git/fetch-beacons.ts: listed, checked for
    // presence, fetched into a quarantine, sized, its ref written).
    expect(processes.filter((argv) => argv.startsWith('fetch '))).toHaveLength(2);
    expect(processes.filter((argv) => argv.startsWith('cat-file -e'))).toEqual([]);
    // The run's listing, ours of the fetched beacons, and the selective listing's scratch repository
    // (src/git/fetch-beacons.ts listSelected: the remote listed only this run's areas).
    expect(processes.filter((argv) => argv.startsWith('for-each-ref '))).toHaveLength(3);
    // The legacy refs (beacons.legacyRefs "read", the migration window) are listed as before.
    expect(processes.filter((argv) => argv.startsWith('ls-remote '))).toEqual(['ls-remote --refs --end-of-options origin refs/airspace/beacons/*']);
    expect(processes.filter((argv) => argv.startsWith('cat-file '))).toEqual([
      'cat-file --batch-check=%(objectname)',
      'cat-file --batch-check=%(objecttype) %(objectsize) %(rest)',
      'cat-file --batch-command --buffer',
    ]);
    // The remote's remote-tracking branches say it is configured: no `git config` process.
    expect(processes.filter((argv) => argv.startsWith('config '))).toEqual([]);
    // Was 22 before these cuts, 19 before the run's one object reader and the config fold (the
    // fetch counts once: its transport children are not ours), 16 before the beacons were fetched
    // apart (issue 24, item 2: +6 when a beacon is new, +2 — ls-remote, for-each-ref — when none is),
    // 22 before the beacons were read by area (issue 27: +1 diff and +1 ls-files for the run's areas,
    // +1 fetch and +1 for-each-ref of the scratch repository's selective listing; the legacy refs of
    // the migration window keep their ls-remote).
    expect(processes).toHaveLength(26);
    // ada's beacon and bo's work touch different files: proven by one diff of her published work
    // from its base (not by her beacon's word), so no merge-tree runs for the pair.
    expect(processes.filter((argv) => argv.startsWith('merge-tree '))).toEqual([]);
    expect(processes.filter((argv) => argv.startsWith('diff-tree --stdin'))).toHaveLength(2);
  });

  it('pre-commit: one cat-file for every object read', () => {
    const trace = join(scratch, 'pre-commit.json');
    const result = runCli(bo, ['hook', 'pre-commit'], { GIT_TRACE2_EVENT: trace });
    expect(result.status, result.stderr).toBe(0);
    const processes = gitProcesses(trace);
    expect(processes.filter((argv) => argv.startsWith('cat-file '))).toEqual(['cat-file --batch-command --buffer']);
    expect(processes.filter((argv) => argv.startsWith('rev-parse '))).toHaveLength(1);
    expect(processes.filter((argv) => argv.startsWith('config '))).toEqual([]);
    // 18 before the run's one object reader (beacon sizes, beacon bodies, the symbol channel's
    // versions) and the config fold.
    expect(processes).toHaveLength(15);
  });

  it("diff of a beacon peer: one cat-file for the beacons' sizes and bodies", () => {
    const trace = join(scratch, 'diff.json');
    const result = runCli(bo, ['diff', 'ada', '--json'], { GIT_TRACE2_EVENT: trace });
    expect(result.status, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { peer: string }).peer).toBe('ada');
    // Was two (`--batch-check`, then `--batch`): `diff` runs in a git scope of its own too.
    expect(gitProcesses(trace).filter((argv) => argv.startsWith('cat-file '))).toEqual(['cat-file --batch-command --buffer']);
  });

  it('pre-push: the own working set against the trunk merge-base is computed once', () => {
    commitAll(bo, 'bo: double b');
    const sha = gitIn(bo, 'rev-parse', 'HEAD');
    const trace = join(scratch, 'pre-push.json');
    const result = runCli(bo, ['hook', 'pre-push', 'origin', remote], { GIT_TRACE2_EVENT: trace }, `refs/heads/bo ${sha} refs/heads/bo ${'0'.repeat(40)}\n`);
    expect(result.status, result.stderr).toBe(0);
    // The beacon went out: bo's published working set is on the remote.
    expect(gitIn(remote, 'for-each-ref', '--format=%(refname)', 'refs/airspace/beacons/')).toMatch(/^refs\/airspace\/beacons\/[0-9a-f]{10}\/bo$/m);
    const processes = gitProcesses(trace);
    const ownDiffs = processes.filter((argv) => argv.startsWith('diff-tree ') && !argv.includes('--stdin') && argv.includes('--patch'));
    expect(ownDiffs).toHaveLength(1);
    expect(processes.filter((argv) => argv.startsWith('log --format=%x01%ct'))).toHaveLength(1);
    expect(processes.filter((argv) => argv.startsWith('rev-parse '))).toHaveLength(1);
    // The run's listing, the beacon part's own listing and its scratch repository's twice (first
    // look, second look) and the second look's before/after of our traffic refs
    // (src/run/recheck-after-announce.ts).
    expect(processes.filter((argv) => argv.startsWith('for-each-ref '))).toHaveLength(7);
    // Whether the own beacon's base is here is an `info` request too: no `cat-file -e` of its own.
    // The second look finds only our own beacon, already in the store: no fetch of it.
    expect(processes.filter((argv) => argv.startsWith('cat-file '))).toEqual(['cat-file --batch-command --buffer', 'cat-file --batch-check=%(objectname)']);
    // Branches and the beacon listing (a selective listing is a `git fetch`: ls-remote sends no
    // ref-prefix in git 2.39), first and second look.
    expect(processes.filter((argv) => argv.startsWith('fetch '))).toHaveLength(4);
    expect(processes.filter((argv) => argv.startsWith('config '))).toEqual([]);
    // 21 before the run's one object reader (four cat-file processes) and the config fold; 17
    // before the beacons were fetched apart (+2) and a pre-push looked again after announcing (+7:
    // issue 24, item 11). Nothing changed but our own beacon, so nothing was judged twice. 26 before
    // the beacons were read by area (issue 27: +2 for the run's areas, asked once for both looks; each
    // look lists the areas by a fetch and a for-each-ref in a scratch repository, the legacy refs of
    // the migration window by ls-remote as before, and writes each part's refs in its own update-ref).
    expect(processes).toHaveLength(33);
  });
});

describe('one for-each-ref for branches and beacons', () => {
  it('lists the same branches in the same order, and the beacons as their own listing printed them', async () => {
    // More refs than the fixture's: names whose byte order differs from their date order.
    for (const name of ['zeta', 'Alpha', 'mid/x', 'é-branch']) gitIn(bo, 'branch', '-f', name, 'HEAD');
    gitIn(bo, 'fetch', '-q', 'origin', '+refs/airspace/*:refs/airspace/remote/*');
    const alone = await listRefs(bo, 'origin');
    const together = await listRefs(bo, 'origin', { also: FETCHED_BEACON_REFS });
    expect(together.refs).toEqual(alone.refs);
    expect(together.hasRemote).toBe(alone.hasRemote);
    const beacons = gitIn(bo, 'for-each-ref', '--sort=-committerdate', '--format=%(refname)%00%(objecttype)%00%(objectname)%00%(parent)', FETCHED_BEACON_REFS);
    expect(beacons).toMatch(/refs\/airspace\/remote\/beacons\/[0-9a-f]{10}\/ada\b/);
    expect(together.also?.map((line) => line.split('\0').slice(0, 4).join('\0')).join('\n')).toBe(beacons);
  });
});

describe('whether the remote is configured', () => {
  it('is answered by its remote-tracking branches, and asked of git only without them', async () => {
    const lone = join(scratch, 'lone');
    gitIn(scratch, 'init', '-q', '-b', 'main', lone);
    gitIn(lone, 'commit', '-q', '--allow-empty', '-m', 'first');
    const trace = join(scratch, 'remote-configured.json');
    process.env.GIT_TRACE2_EVENT = trace;
    try {
      expect((await listRefs(lone, 'origin')).hasRemote).toBe(false);
      // Configured, never fetched: no remote-tracking branch, so git is asked.
      gitIn(lone, 'remote', 'add', 'origin', remote);
      expect((await listRefs(lone, 'origin')).hasRemote).toBe(true);
      // Fetched: the listing answers.
      expect((await listRefs(bo, 'origin')).hasRemote).toBe(true);
      // Removed: git drops the remote-tracking branches with it.
      gitIn(lone, 'fetch', '-q', 'origin');
      gitIn(lone, 'remote', 'remove', 'origin');
      expect((await listRefs(lone, 'origin')).hasRemote).toBe(false);
    } finally {
      delete process.env.GIT_TRACE2_EVENT;
    }
    const configs = gitProcesses(trace).filter((argv) => argv.startsWith('config '));
    // The three listings without remote-tracking branches asked; the fetched clone's did not.
    expect(configs).toEqual(Array(3).fill('config --get remote.origin.url'));
  });
});
