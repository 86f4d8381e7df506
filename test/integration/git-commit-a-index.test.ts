import { copyFileSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { diffWorkingSet } from '../../src/git/diff-working-set.js';
import { resolveRepo } from '../../src/git/resolve-repo.js';
import { snapshotWorktree } from '../../src/git/snapshot-worktree.js';
import { gitIn, initRepo, removeDir, sh, testEnv, userStateFingerprint, writeFiles } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

const dirs: string[] = [];
afterEach(() => {
  delete process.env.GIT_INDEX_FILE;
  dirs.splice(0).forEach(removeDir);
});

/**
 * Inside `git commit -a` (or `git commit <paths>`) git builds the commit in a separate index and
 * exports GIT_INDEX_FILE to the hook. We simulate that: a second index that differs from the
 * user's (it force-adds an ignored file), exported in the environment as a hook would see it.
 */
describe('the index git is building (GIT_INDEX_FILE inside a hook)', () => {
  it('is read with inheritRepoEnv, ignored without it, and neither index file changes', async () => {
    const dir = initRepo({ 'a.txt': 'one\n', '.gitignore': '*.log\n' });
    dirs.push(dir);
    writeFiles(dir, { 'a.txt': 'two\n', 'forced.log': 'kept by the building index\n' });
    const realIndex = join(dir, '.git', 'index');
    const building = join(dir, '.git', 'next-index-test.lock');
    copyFileSync(realIndex, building);
    // Keep the index's mtime on the copy, as git does when it writes the index it builds: a copy
    // stamped "now" makes a file rewritten in the same second with the same size look unchanged
    // to `git add` (racy git), and the test would race against the clock.
    const { atime, mtime } = statSync(realIndex);
    utimesSync(building, atime, mtime);
    sh(dir, 'git', ['add', '-f', 'forced.log', 'a.txt'], { GIT_INDEX_FILE: building });
    const realBefore = readFileSync(realIndex);
    const buildingBefore = readFileSync(building);
    const stateBefore = userStateFingerprint(dir);

    process.env.GIT_INDEX_FILE = building;
    const inherited = await resolveRepo(dir, { inheritRepoEnv: true });
    expect(inherited.indexFile).toBe(building);
    const inHook = await snapshotWorktree(inherited, { inheritRepoEnv: true });
    const hookSet = await diffWorkingSet(dir, inherited.head!, inHook.commit!);
    expect(hookSet.files.map((file) => file.file)).toEqual(['a.txt', 'forced.log']);

    // Without inheritRepoEnv the variable is dropped: the user's own index is the starting point,
    // where forced.log is not tracked and stays ignored.
    const plain = await resolveRepo(dir);
    expect(plain.indexFile).toBe(realIndex);
    const outside = await snapshotWorktree(plain);
    const plainSet = await diffWorkingSet(dir, plain.head!, outside.commit!);
    expect(plainSet.files.map((file) => file.file)).toEqual(['a.txt']);

    expect(readFileSync(realIndex).equals(realBefore)).toBe(true);
    expect(readFileSync(building).equals(buildingBefore)).toBe(true);
    delete process.env.GIT_INDEX_FILE;
    expect(userStateFingerprint(dir)).toBe(stateBefore);
  });

  it('a real `git commit -a` still commits what the user asked for after a snapshot ran', async () => {
    const dir = initRepo({ 'a.txt': 'one\n' });
    dirs.push(dir);
    writeFiles(dir, { 'a.txt': 'two\n', 'untracked.txt': 'u\n' });
    await snapshotWorktree(await resolveRepo(dir));
    sh(dir, 'git', ['commit', '-q', '-a', '-m', 'commit -a']);
    expect(gitIn(dir, 'show', '--name-only', '--format=', 'HEAD')).toBe('a.txt');
    expect(gitIn(dir, 'status', '--porcelain')).toBe('?? untracked.txt');
  });
});
