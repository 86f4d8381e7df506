import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findCommonDir, residentPaths, userTempDir } from '../../src/resident/resident-paths.js';
import { gitIn, initRepo, removeDir, tempDir } from '../helpers/temp-repo.js';

/** The fast path finds the common git dir without git, and the socket always fits sun_path. */
describe('where the resident process lives', () => {
  const root = realpathSync(tempDir('airspace-resident-paths-'));
  afterAll(() => removeDir(root));

  it('finds the common git dir as git does: main worktree, a linked one, a subdirectory, GIT_DIR', () => {
    const main = initRepo({ 'src/a.txt': 'a\n' }, join(root, 'main'));
    const linked = join(root, 'linked');
    gitIn(main, 'worktree', 'add', '-q', '-b', 'linked', linked);
    const common = gitIn(main, 'rev-parse', '--path-format=absolute', '--git-common-dir').trim();
    expect(findCommonDir(main, {})).toBe(common);
    expect(findCommonDir(join(main, 'src'), {})).toBe(common);
    expect(findCommonDir(join(linked, 'src'), {})).toBe(common);
    expect(findCommonDir(root, { GIT_DIR: join(linked, '.git') })).toBe(join(linked, '.git'));
    expect(findCommonDir(root, { GIT_DIR: gitIn(linked, 'rev-parse', '--absolute-git-dir').trim() })).toBe(common);
    const outside = join(root, 'plain');
    mkdirSync(outside);
    // No repository above the temp dir (the tests' temp dirs are not inside one).
    expect(findCommonDir(outside, {})).toBeNull();
  });

  it('keeps the socket under the git dir while its path fits, else in a per-user directory under the temp dir', () => {
    const near = residentPaths('/repo/.git');
    expect(near.socket).toBe('/repo/.git/airspace/resident/socket');
    const deep = `/${'d'.repeat(120)}/.git`;
    const far = residentPaths(deep);
    expect(far.info).toBe(`${deep}/airspace/resident/resident.json`);
    expect(far.socket.startsWith(`${userTempDir()}/`)).toBe(true);
    expect(Buffer.byteLength(far.socket)).toBeLessThanOrEqual(100);
    expect(residentPaths(deep).socket).toBe(far.socket);
    expect(residentPaths(`${deep}x`).socket).not.toBe(far.socket);
  });
});
