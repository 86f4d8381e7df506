import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveRepo } from '../../src/git/resolve-repo.js';
import { snapshotWorktree } from '../../src/git/snapshot-worktree.js';
import { gitIn, initRepo, removeDir, testEnv, userStateFingerprint, writeFiles } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

/**
 * `core.splitIndex` on (issue 15, item 5): a snapshot writes a temp index; git keeps the shared
 * part of a split index in the git dir, so each snapshot used to leave a `sharedindex.*` there.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const sharedIndexes = (repo: string) =>
  readdirSync(join(repo, '.git'))
    .filter((name) => name.startsWith('sharedindex.'))
    .sort();

describe('snapshots in a repository with core.splitIndex', () => {
  it('leave no sharedindex file behind, see every change and leave the user index alone', async () => {
    const repo = initRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'gone.txt': 'g\n' });
    dirs.push(repo);
    gitIn(repo, 'config', 'core.splitIndex', 'true');
    // Rewrite the index split (the initial commit may predate the setting).
    gitIn(repo, 'update-index', '--split-index');
    writeFiles(repo, { 'b.txt': 'b staged\n' });
    gitIn(repo, 'add', 'b.txt');
    const before = sharedIndexes(repo);
    expect(before.length).toBeGreaterThan(0);
    const fingerprint = userStateFingerprint(repo);

    const trees: string[] = [];
    for (let i = 1; i <= 3; i++) {
      writeFiles(repo, { 'a.txt': `a edit ${i}\n`, [`new-${i}.txt`]: `new ${i}\n` });
      if (i === 2) rmSync(join(repo, 'gone.txt'));
      const snapshot = await snapshotWorktree(await resolveRepo(repo));
      expect(snapshot.dirty).toBe(true);
      if (snapshot.dirty) trees.push(snapshot.tree);
      expect(sharedIndexes(repo)).toEqual(before);
    }
    const listing = gitIn(repo, 'ls-tree', '-r', '--name-only', trees[2]!).split('\n');
    expect(listing).toEqual(['a.txt', 'b.txt', 'new-1.txt', 'new-2.txt', 'new-3.txt']);
    expect(gitIn(repo, 'show', `${trees[2]}:a.txt`)).toBe('a edit 3');
    expect(gitIn(repo, 'show', `${trees[2]}:b.txt`)).toBe('b staged');
    // Put the files back as they were: the index (split, with its staged change) is byte-identical.
    writeFiles(repo, { 'a.txt': 'a\n', 'gone.txt': 'g\n' });
    for (let i = 1; i <= 3; i++) rmSync(join(repo, `new-${i}.txt`));
    expect(userStateFingerprint(repo)).toBe(fingerprint);
    expect(gitIn(repo, 'diff', '--cached', '--name-only')).toBe('b.txt');
    expect(sharedIndexes(repo)).toEqual(before);
  });
});
