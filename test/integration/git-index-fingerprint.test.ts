import { copyFileSync, openSync, closeSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexChecksum, indexFingerprint } from '../../src/git/index-fingerprint.js';
import { gitIn, initRepo, removeDir, testEnv, writeFiles } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

/**
 * The resident's proof that the asker's index is the one its memo was sensed from
 * (src/git/index-fingerprint.ts): the index file's own hash where git wrote one, `ls-files`
 * where it did not (index.skipHash, git 2.40+, writes zeros there; git 2.39 reads such a file,
 * as it never checks that hash outside fsck, so the zeros are written here by hand).
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** A copy of the index with its last 20 bytes (the SHA-1 git wrote) zeroed, as index.skipHash writes it. */
function unhashedCopy(repo: string, name: string): string {
  const copy = join(repo, '.git', name);
  copyFileSync(join(repo, '.git', 'index'), copy);
  const fd = openSync(copy, 'r+');
  writeSync(fd, Buffer.alloc(20), 0, 20, statSync(copy).size - 20);
  closeSync(fd);
  return copy;
}

describe('the index fingerprint', () => {
  it('is the same for the same bytes under another name and changes with what status reads', async () => {
    const repo = initRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    dirs.push(repo);
    const index = join(repo, '.git', 'index');
    const before = await indexFingerprint(repo, index);
    expect(before).toMatch(/^index:\d+:[0-9a-f]{64}$/);
    // git commit -a hands its hook index.lock: the same bytes are the same index.
    const lock = join(repo, '.git', 'index.copy');
    copyFileSync(index, lock);
    expect(await indexFingerprint(repo, lock)).toBe(before);
    // Only a flag changes (assume-unchanged): a different index.
    gitIn(repo, 'update-index', '--assume-unchanged', 'a.txt');
    const flagged = await indexFingerprint(repo, index);
    expect(flagged).not.toBe(before);
    gitIn(repo, 'update-index', '--no-assume-unchanged', 'a.txt');
    writeFiles(repo, { 'c.txt': 'c\n' });
    gitIn(repo, 'add', 'c.txt');
    const staged = await indexFingerprint(repo, index);
    expect(new Set([before, flagged, staged]).size).toBe(3);
  });

  it('falls back to the listing when the file carries no hash, and tells those indexes apart', async () => {
    const repo = initRepo({ 'a.txt': 'a\n' });
    dirs.push(repo);
    const first = unhashedCopy(repo, 'index.first');
    expect(indexChecksum(first)).toBeNull();
    const listed = await indexFingerprint(repo, first);
    expect(listed).toMatch(/^listing:[0-9a-f]{64}$/);
    gitIn(repo, 'update-index', '--assume-unchanged', 'a.txt');
    const second = unhashedCopy(repo, 'index.second');
    expect(await indexFingerprint(repo, second)).not.toBe(listed);
    // No index at all (a repository before its first `git add`): the listing, never a throw.
    expect(indexChecksum(join(repo, '.git', 'no-such-index'))).toBeNull();
    expect(await indexFingerprint(repo, join(repo, '.git', 'no-such-index'))).toMatch(/^listing:/);
  });
});
