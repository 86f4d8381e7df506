import { afterEach, describe, expect, it } from 'vitest';
import { mergeChannels } from '../../src/channels/merge-channel.js';
import { mergeBase } from '../../src/git/merge-base.js';
import { mergeTreeChannel } from '../../src/git/merge-tree-channel.js';
import { resolveRepo } from '../../src/git/resolve-repo.js';
import { snapshotWorktree } from '../../src/git/snapshot-worktree.js';
import { collectAirspace } from '../../src/traffic/collect-airspace.js';
import { HistoryBuilder } from '../helpers/history-builder.js';
import { commitAll, gitIn, removeDir, testEnv, userStateFingerprint, writeFiles } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join('');
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

/** main + two branches off it (one fast-import); returns the repo with `left` checked out. */
function forked(left: Record<string, string>, right: Record<string, string>): string {
  // Recent dates: the scans below drop peers older than maxAgeDays.
  const at = Math.floor(Date.now() / 1000) - 60;
  const { repo } = new HistoryBuilder()
    .commit('main', { message: 'initial', at, files: { 'a.txt': lines(30), 'b.txt': lines(30) } })
    .branch('right', 'main')
    .commit('right', { message: 'right', at: at + 1, files: right })
    .branch('left', 'main')
    .commit('left', { message: 'left', at: at + 2, files: left })
    .write({ head: 'left' });
  dirs.push(repo);
  return repo;
}

describe('exact merge channel (git merge-tree --write-tree)', () => {
  it('conflict: value 1 with the conflicted paths; clean: value 0 — and nothing of the user changes', async () => {
    const dir = forked({ 'a.txt': lines(30).replace('line 7\n', 'left\n') }, { 'a.txt': lines(30).replace('line 7\n', 'right\n'), 'b.txt': 'x\n' });
    gitIn(dir, 'switch', '-q', '-c', 'far', 'main');
    writeFiles(dir, { 'a.txt': lines(30).replace('line 25\n', 'far\n') });
    commitAll(dir, 'far');
    gitIn(dir, 'switch', '-q', 'left');
    writeFiles(dir, { 'b.txt': 'uncommitted stays\n' });
    const before = userStateFingerprint(dir);
    const refsBefore = gitIn(dir, 'for-each-ref');
    expect(await mergeTreeChannel(dir, 'left', 'right')).toEqual({ value: 1, conflictedPaths: ['a.txt'] });
    expect(await mergeTreeChannel(dir, 'left', 'far')).toEqual({ value: 0, conflictedPaths: [] });
    expect(gitIn(dir, 'for-each-ref')).toBe(refsBefore);
    expect(userStateFingerprint(dir)).toBe(before);
  });

  it('uncommitted work takes part through the snapshot commit', async () => {
    const dir = forked({ 'b.txt': lines(30).replace('line 1\n', 'left\n') }, { 'a.txt': lines(30).replace('line 12\n', 'right\n') });
    expect((await mergeTreeChannel(dir, 'left', 'right')).value).toBe(0);
    writeFiles(dir, { 'a.txt': lines(30).replace('line 12\n', 'mine, not committed\n') });
    const before = userStateFingerprint(dir);
    const snapshot = await snapshotWorktree(await resolveRepo(dir));
    expect(await mergeTreeChannel(dir, snapshot.commit!, 'right')).toEqual({ value: 1, conflictedPaths: ['a.txt'] });
    const scan = await collectAirspace(dir, {
      remote: 'origin',
      include: [],
      exclude: [],
      maxAgeDays: 30,
      ignore: () => false,
      agents: ['right=right'],
    });
    expect((await mergeChannels(scan.pairs, { cwd: dir, ignore: (p) => p === 'package-lock.json', concurrency: 4 }))[0]!.merge).toEqual({
      value: 1,
      conflictedPaths: ['a.txt'],
    });
    expect(userStateFingerprint(dir)).toBe(before);
  });

  it('a conflict only in ignored files is no conflict', async () => {
    const dir = forked(
      { 'package-lock.json': '{"l":1}\n', 'a.txt': 'L\n' },
      { 'package-lock.json': '{"r":1}\n', 'a.txt': lines(30).replace('line 30\n', 'R\n') },
    );
    const scan = await collectAirspace(dir, {
      remote: 'origin',
      include: [],
      exclude: [],
      maxAgeDays: 30,
      ignore: (p) => p === 'package-lock.json',
      agents: ['right=right'],
    });
    // a.txt: left rewrote it entirely, right changed line 30 → a real conflict remains, the lockfile is dropped.
    expect((await mergeChannels(scan.pairs, { cwd: dir, ignore: (p) => p === 'package-lock.json', concurrency: 4 }))[0]!.merge).toEqual({
      value: 1,
      conflictedPaths: ['a.txt'],
    });
  });

  it('unknown revisions and unrelated histories are unknown, never clear', async () => {
    const dir = forked({ 'a.txt': 'l\n' }, { 'b.txt': 'r\n' });
    // merge-tree exits 1 for a bad revision too: only a printed tree id makes it a conflict.
    const bad = await mergeTreeChannel(dir, 'left', 'no-such-branch');
    expect(bad.value).toBeNull();
    expect(bad.reason).toMatch(/merge-tree/);
    gitIn(dir, 'switch', '-q', '--orphan', 'island');
    writeFiles(dir, { 'island.txt': 'i\n' });
    commitAll(dir, 'island');
    const base = await mergeBase(dir, 'left', 'island');
    expect(base).toEqual({ base: null, reason: expect.stringContaining('no common history') });
    const unrelated = await mergeTreeChannel(dir, 'left', 'island');
    expect(unrelated.value).toBeNull();
    const scan = await collectAirspace(dir, {
      remote: 'origin',
      include: [],
      exclude: [],
      maxAgeDays: 30,
      ignore: () => false,
      agents: ['left=left'],
    });
    expect(scan.pairs).toEqual([]);
    expect(scan.unknown).toEqual([{ id: 'left', with: 'island', reason: expect.stringContaining('no common history') }]);
  });
});
