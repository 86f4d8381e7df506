import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changedPathsBatch } from '../../src/git/diff-working-set.js';
import { discoverWorktrees } from '../../src/traffic/discover-worktrees.js';
import { commitAll, gitIn, initRepo, removeDir, tempDir, testEnv, userStateFingerprint, writeFiles } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));
/**
 * Files changed less than 2 s before a run are racy and never cached (src/git/snapshot-cache.ts).
 * Instead of sleeping past that limit, `settled` runs the discovery with a clock 3 s ahead: every
 * file written so far is then old enough, deterministically.
 */
const SETTLED_MS = 3_000;
/**
 * The other way round: a run that began a minute ago sees every file as written within its racy
 * window. With the real clock, a loaded machine could take over 2 s between writing the files and
 * the run, and the "fresh" case became a settled one.
 */
const RACY_CLOCK_MS = -60_000;

/** A main worktree plus one linked peer with a modified, an untracked and a deleted file. */
function setup(): { main: string; peer: string; commonDir: string } {
  const root = tempDir();
  dirs.push(root);
  const main = join(root, 'main');
  initRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'gone.txt': 'g\n', '.gitignore': '*.log\n' }, main);
  const peer = join(root, 'peer');
  gitIn(main, 'worktree', 'add', '-q', '-b', 'feature/peer', peer);
  writeFiles(peer, { 'a.txt': 'a changed\n', 'new/untracked.txt': 'u1\n', 'debug.log': 'ignored\n' });
  rmSync(join(peer, 'gone.txt'));
  return { main, peer, commonDir: join(main, '.git') };
}

async function discover(main: string, commonDir: string, settled = true) {
  const found = await discoverWorktrees(main, main, commonDir, () => Date.now() + (settled ? SETTLED_MS : RACY_CLOCK_MS));
  expect(found.unknown).toEqual([]);
  expect(found.worktrees).toHaveLength(1);
  return { ...found, peer: found.worktrees[0]! };
}

describe('peer worktree snapshots are reused between runs only while nothing changed', () => {
  it('reuses a settled peer, re-snapshots after an edit that keeps the status, and never touches the peer', async () => {
    const { main, peer, commonDir } = setup();
    const before = userStateFingerprint(peer);

    // Files written less than 2 s before the run began are racy: a snapshot is made but not cached.
    const fresh = await discover(main, commonDir, false);
    expect(fresh.snapshots).toEqual({ reused: 0, made: 1 });
    expect([...fresh.peer.uncommittedPaths].sort()).toEqual(['a.txt', 'gone.txt', 'new/untracked.txt']);
    expect(existsSync(join(commonDir, 'airspace', 'worktree-snapshots-v1.json'))).toBe(false);
    const first = await discover(main, commonDir);
    expect(first.snapshots).toEqual({ reused: 0, made: 1 });
    expect(existsSync(join(commonDir, 'airspace', 'worktree-snapshots-v1.json'))).toBe(true);
    const second = await discover(main, commonDir);
    expect(second.snapshots).toEqual({ reused: 1, made: 0 });
    expect(second.peer).toEqual(first.peer);
    expect(userStateFingerprint(peer)).toBe(before);

    // Same status output (` M a.txt`, `?? new/untracked.txt`), different content: a miss.
    writeFiles(peer, { 'new/untracked.txt': 'u2\n' });
    const edited = userStateFingerprint(peer);
    const third = await discover(main, commonDir);
    expect(third.snapshots).toEqual({ reused: 0, made: 1 });
    expect(third.peer.snapshot).not.toBe(first.peer.snapshot);
    expect(gitIn(main, 'show', `${third.peer.snapshot!}:new/untracked.txt`)).toBe('u2');
    expect(userStateFingerprint(peer)).toBe(edited);
    expect(gitIn(peer, 'status', '--porcelain', '-uall')).toBe(' M a.txt\n D gone.txt\n?? new/untracked.txt');
  });

  it('a staged change or a new HEAD changes the key; a pruned snapshot commit is made again', async () => {
    const { main, peer, commonDir } = setup();
    const first = await discover(main, commonDir);
    expect((await discover(main, commonDir)).snapshots.reused).toBe(1);

    // gc removes the unreferenced snapshot commit: the cache entry must not be trusted.
    gitIn(main, 'gc', '-q', '--prune=now');
    const afterGc = await discover(main, commonDir);
    expect(afterGc.snapshots).toEqual({ reused: 0, made: 1 });
    expect(gitIn(main, 'cat-file', '-t', afterGc.peer.snapshot!)).toBe('commit');
    expect(afterGc.peer.uncommittedPaths).toEqual(first.peer.uncommittedPaths);

    gitIn(peer, 'add', 'a.txt');
    const staged = await discover(main, commonDir);
    expect(staged.snapshots.made).toBe(1);
    expect(gitIn(main, 'show', `${staged.peer.snapshot!}:a.txt`)).toBe('a changed');

    gitIn(peer, 'commit', '-q', '-m', 'peer commits');
    const committed = await discover(main, commonDir);
    expect(committed.snapshots.made).toBe(1);
    expect(committed.peer.tip).toBe(gitIn(peer, 'rev-parse', 'HEAD'));
    expect([...committed.peer.uncommittedPaths].sort()).toEqual(['gone.txt', 'new/untracked.txt']);
  });

  it('an edit undone (status lists it, content equals HEAD) is clean', async () => {
    const { main, peer, commonDir } = setup();
    rmSync(join(peer, 'new'), { recursive: true });
    gitIn(peer, 'checkout', '-q', '--', 'gone.txt');
    gitIn(peer, 'add', 'a.txt');
    writeFileSync(join(peer, 'a.txt'), 'a\n');
    expect(gitIn(peer, 'status', '--porcelain')).toBe('MM a.txt');
    const found = await discover(main, commonDir);
    expect(found.peer.snapshot).toBeUndefined();
    expect(found.peer.uncommittedPaths).toEqual([]);
  });
});

describe('changedPathsBatch', () => {
  it('reads back every request of one diff-tree --stdin in order, empty ones included', async () => {
    const dir = initRepo({ 'x.txt': '1\n' });
    dirs.push(dir);
    const c1 = gitIn(dir, 'rev-parse', 'HEAD');
    writeFiles(dir, { 'y z.txt': '2\n', 'sub/ü.txt': '3\n' });
    const c2 = commitAll(dir, 'two');
    const result = await changedPathsBatch(dir, [
      { from: c1, to: c2 },
      { from: c2, to: c1 },
      { from: c1, to: c2 },
    ]);
    expect(result.get(c2)).toEqual(['sub/ü.txt', 'y z.txt']);
    expect(result.get(c1)).toEqual(['sub/ü.txt', 'y z.txt']);
    const empty = await changedPathsBatch(dir, [{ from: c1, to: c1 }]);
    expect(empty.get(c1)).toEqual([]);
  });
});
