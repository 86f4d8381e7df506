import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveRepo } from '../../src/git/resolve-repo.js';
import { snapshotWorktree } from '../../src/git/snapshot-worktree.js';
import { gitIn, initRepo, removeDir, sh, testEnv } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

/**
 * The snapshot's copy of the index is stamped as late as it safely can be (src/git/snapshot-worktree.ts,
 * `writeIndexCopy`): no earlier than the earliest edit it re-reads, so git does not re-hash every
 * racy entry of a fresh clone. What must still hold: an edit that leaves the file's stat data as the
 * index recorded it (same size, same mtime to the nanosecond, ctime not trusted) in the second the
 * index was written is seen — `git status` finds it by content, and the snapshot holds the new text,
 * not the index's. The mtimes are set with `touch -r` (nanoseconds), so the case does not depend on
 * the clock.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('a snapshot of an edit that keeps its stat data', () => {
  it('holds the edited content, with a later edit beside it', async () => {
    const dir = initRepo({ 'a.txt': 'one\n', 'b.txt': 'first\n', 'c.txt': 'same\n' });
    dirs.push(dir);
    gitIn(dir, 'config', 'core.trustctime', 'false');
    const ref = join(dir, '..', `${dir.split('/').pop()}-stamp`);
    dirs.push(ref);
    // The moment a.txt was indexed, the index written in it: a.txt is racily clean.
    writeFileSync(ref, '');
    sh(dir, 'touch', ['-r', join(dir, 'a.txt'), ref]);
    writeFileSync(join(dir, 'a.txt'), 'two\n');
    sh(dir, 'touch', ['-r', ref, join(dir, 'a.txt'), join(dir, '.git', 'index')]);
    expect(gitIn(dir, '--no-optional-locks', 'status', '--porcelain')).toBe(' M a.txt');
    // b.txt edited later, with a time of its own: the copy may not be stamped after a.txt for it.
    writeFileSync(join(dir, 'b.txt'), 'second\n');
    sh(dir, 'touch', ['-d', '+2 seconds', join(dir, 'b.txt')]);
    const indexBefore = readFileSync(join(dir, '.git', 'index'));

    const snapshot = await snapshotWorktree(await resolveRepo(dir));
    expect(snapshot.dirty).toBe(true);
    const commit = snapshot.commit!;
    expect(gitIn(dir, 'show', `${commit}:a.txt`)).toBe('two');
    expect(gitIn(dir, 'show', `${commit}:b.txt`)).toBe('second');
    expect(gitIn(dir, 'show', `${commit}:c.txt`)).toBe('same');
    expect(readFileSync(join(dir, '.git', 'index')).equals(indexBefore)).toBe(true);
  });
});
