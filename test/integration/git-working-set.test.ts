import { readFileSync, renameSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { diffKey, diffWorkingSet, diffWorkingSets } from '../../src/git/diff-working-set.js';
import { resolveRepo } from '../../src/git/resolve-repo.js';
import { snapshotWorktree } from '../../src/git/snapshot-worktree.js';
import { collectAirspace } from '../../src/traffic/collect-airspace.js';
import { commitAll, gitIn, initRepo, removeDir, testEnv, userStateFingerprint, writeFiles } from '../helpers/temp-repo.js';

/** Files without the identity fields (hunk ids, object ids; tested in test/unit/traffic/identical-edits.test.ts). */
const shapes = (files: readonly object[]): object[] => files.map(({ hunkIds: _h, blob: _b, ...rest }: { hunkIds?: unknown; blob?: unknown }) => rest);

// Library code spawns git with process.env: give it the tests' clean identity and config.
Object.assign(process.env, testEnv());

const lines = (n: number, prefix = 'line'): string => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}\n`).join('');
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function repo(files: Record<string, string | Buffer> = { 'a.txt': lines(10), 'b.txt': lines(5) }): string {
  const dir = initRepo(files);
  dirs.push(dir);
  return dir;
}

/** Ownship's uncommitted work as a working set against HEAD, and the user-state check around it. */
async function uncommitted(dir: string) {
  const before = userStateFingerprint(dir);
  const indexBefore = readFileSync(join(dir, '.git', 'index'));
  const info = await resolveRepo(dir);
  const snapshot = await snapshotWorktree(info);
  const set = await diffWorkingSet(dir, info.head!, snapshot.commit!);
  expect(userStateFingerprint(dir)).toBe(before);
  expect(readFileSync(join(dir, '.git', 'index')).equals(indexBefore)).toBe(true);
  return { snapshot, set, info };
}

describe('working sets of uncommitted work (snapshot through a temp index)', () => {
  it('staged-only change', async () => {
    const dir = repo();
    writeFiles(dir, { 'a.txt': lines(10).replace('line 3\n', 'LINE 3\n') });
    gitIn(dir, 'add', 'a.txt');
    const { set, snapshot } = await uncommitted(dir);
    expect(snapshot.dirty).toBe(true);
    expect(shapes(set.files)).toEqual([{ file: 'a.txt', status: 'M', ranges: [[3, 4]] }]);
  });

  it('unstaged-only change, including a pure insertion (empty range after the line)', async () => {
    const dir = repo();
    writeFiles(dir, { 'b.txt': lines(5).replace('line 2\n', 'line 2\nnew\n') });
    const { set } = await uncommitted(dir);
    expect(shapes(set.files)).toEqual([{ file: 'b.txt', status: 'M', ranges: [[3, 3]] }]);
  });

  it('untracked files count, ignored ones do not', async () => {
    const dir = repo({ 'a.txt': lines(3), '.gitignore': 'dist/\n*.log\n' });
    writeFiles(dir, { 'src/new.ts': 'export {};\n', 'dist/out.js': 'x', 'debug.log': 'x' });
    const { set } = await uncommitted(dir);
    expect(shapes(set.files)).toEqual([{ file: 'src/new.ts', status: 'A', whole: true }]);
  });

  it('clean worktree reuses HEAD (no snapshot commit)', async () => {
    const dir = repo();
    const { snapshot, set, info } = await uncommitted(dir);
    expect(snapshot).toMatchObject({ dirty: false, commit: info.head });
    expect(set.files).toEqual([]);
  });

  it('rename keeps both paths, delete and binary are whole-file edits', async () => {
    const dir = repo({ 'a.txt': lines(40), 'gone.txt': lines(3), 'img.bin': Buffer.from([0, 1, 2, 3]) });
    renameSync(join(dir, 'a.txt'), join(dir, 'renamed.txt'));
    writeFiles(dir, { 'renamed.txt': lines(40).replace('line 20\n', 'line twenty\n'), 'img.bin': Buffer.from([0, 9, 9]) });
    rmSync(join(dir, 'gone.txt'));
    const { set } = await uncommitted(dir);
    // git orders a rename by its destination path.
    expect(shapes(set.files)).toEqual([
      { file: 'gone.txt', status: 'D', whole: true },
      { file: 'img.bin', status: 'M', whole: true, binary: true },
      { file: 'a.txt', path: 'renamed.txt', status: 'R', ranges: [[20, 21]] },
    ]);
  });

  it('paths with spaces, unicode and newlines come through verbatim', async () => {
    const odd = { 'with space.txt': lines(3), 'ünï/cödé.ts': lines(3), 'new\nline.txt': lines(3) };
    const dir = repo(odd);
    writeFiles(dir, Object.fromEntries(Object.keys(odd).map((path) => [path, lines(3).replace('line 2\n', 'two\n')])));
    writeFiles(dir, { 'tab\there.txt': 'x\n' });
    const { set } = await uncommitted(dir);
    expect(set.files.map((file) => [file.file, file.ranges ?? 'whole'])).toEqual(
      expect.arrayContaining([
        ['with space.txt', [[2, 3]]],
        ['ünï/cödé.ts', [[2, 3]]],
        ['new\nline.txt', [[2, 3]]],
        ['tab\there.txt', 'whole'],
      ]),
    );
    expect(set.files).toHaveLength(4);
  });
});

describe('batched diffs (one diff-tree --stdin)', () => {
  it('give the same working sets as one diff per request, empty diffs and odd paths included', async () => {
    const dir = repo({ 'a.txt': lines(10), 'new\nline.txt': lines(3), 'x y.txt': lines(3) });
    const c0 = gitIn(dir, 'rev-parse', 'HEAD');
    writeFiles(dir, { 'a.txt': lines(10).replace('line 2\n', 'two\n'), 'new\nline.txt': 'x\n', bin: Buffer.from([0, 1]) });
    const c1 = commitAll(dir, 'one');
    renameSync(join(dir, 'x y.txt'), join(dir, 'z w.txt'));
    const c2 = commitAll(dir, 'two');
    const requests = [
      { base: c0, target: c1 },
      { base: c1, target: c1 },
      { base: c0, target: c2 },
      { base: c2, target: c0 },
      { base: c1, target: c2 },
    ];
    const batch = await diffWorkingSets(dir, requests);
    for (const request of requests) {
      expect(batch.get(diffKey(request))).toEqual(await diffWorkingSet(dir, request.base, request.target));
    }
    expect(batch.get(diffKey(requests[1]!))!.files).toEqual([]);
    expect(shapes(batch.get(diffKey(requests[4]!))!.files)).toEqual([{ file: 'x y.txt', path: 'z w.txt', status: 'R', whole: true }]);
  });
});

describe('ownship through collectAirspace', () => {
  it('unpushed commits and uncommitted work are both in the working set, with origin and last edit time', async () => {
    const dir = repo({ 'a.txt': lines(10), 'b.txt': lines(10) });
    gitIn(dir, 'switch', '-q', '-c', 'feature/x');
    writeFiles(dir, { 'a.txt': lines(10).replace('line 5\n', 'five\n') });
    commitAll(dir, 'edit a', '2026-01-02T03:04:05Z');
    writeFiles(dir, { 'b.txt': lines(10).replace('line 9\n', 'nine\n') });
    utimesSync(join(dir, 'b.txt'), new Date('2026-02-01T00:00:00Z'), new Date('2026-02-01T00:00:00Z'));
    // A peer worktree on main, so there is a pair to compare.
    const peer = join(dir, '..', `${dir.split('/').pop()}-peer`);
    dirs.push(peer);
    gitIn(dir, 'worktree', 'add', '-q', '--detach', peer, 'main');
    const before = userStateFingerprint(dir);
    const scan = await collectAirspace(dir, { remote: 'origin', include: [], exclude: [], maxAgeDays: 30, ignore: () => false });
    expect(userStateFingerprint(dir)).toBe(before);
    expect(scan.ownship).toMatchObject({ id: 'feature/x', kind: 'worktree', commitsSinceTrunk: 1, subjects: ['edit a'], uncommittedPaths: ['b.txt'] });
    // No remote: the local branch is what "pushed" means (single-machine repo).
    expect(scan.ownship!.facts).toEqual({ committedWork: 1, startedAt: Date.parse('2026-01-02T03:04:05Z') });
    expect(scan.scanned.notes.join('\n')).toContain('no remote named origin');
    const pair = scan.pairs[0]!;
    expect(pair.a).toBe('feature/x');
    expect(shapes(pair.workingSetA.files)).toEqual([
      { file: 'a.txt', status: 'M', ranges: [[5, 6]], origin: 'committed', lastEditTime: Date.parse('2026-01-02T03:04:05Z') },
      { file: 'b.txt', status: 'M', ranges: [[9, 10]], origin: 'uncommitted', lastEditTime: Date.parse('2026-02-01T00:00:00Z') },
    ]);
    expect(pair.workingSetB.files).toEqual([]);
  });

  it('the ignore predicate removes noise files from working sets', async () => {
    const dir = repo({ 'a.txt': lines(3), 'package-lock.json': '{}\n' });
    writeFiles(dir, { 'a.txt': 'x\n', 'package-lock.json': '{"a":1}\n' });
    const peer = `${dir}-peer`;
    dirs.push(peer);
    gitIn(dir, 'worktree', 'add', '-q', '--detach', peer, 'main');
    const scan = await collectAirspace(dir, {
      remote: 'origin',
      include: [],
      exclude: [],
      maxAgeDays: 30,
      ignore: (path) => path.endsWith('-lock.json'),
    });
    expect(scan.pairs[0]!.workingSetA.files.map((file) => file.file)).toEqual(['a.txt']);
  });
});
