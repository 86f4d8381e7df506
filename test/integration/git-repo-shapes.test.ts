import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveRepo } from '../../src/git/resolve-repo.js';
import { collectAirspace, type CollectOptions } from '../../src/traffic/collect-airspace.js';
import { commitAll, gitIn, initRepo, removeDir, tempDir, testEnv, userStateFingerprint, writeFiles } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

const options: CollectOptions = { remote: 'origin', include: [], exclude: [], maxAgeDays: 3650, ignore: () => false };
const dirs: string[] = [];

/** A bare remote and one clone (the shared helper's remoteWithClones needs its seed dir to exist). */
function remoteWithClone(files: Record<string, string>): { root: string; clone: string; remote: string } {
  const root = tempDir();
  const seed = join(root, 'seed');
  mkdirSync(seed);
  initRepo(files, seed);
  const remote = join(root, 'remote.git');
  gitIn(root, 'init', '-q', '--bare', '-b', 'main', remote);
  gitIn(seed, 'push', '-q', remote, 'main');
  gitIn(root, 'clone', '-q', remote, join(root, 'clone'));
  return { root, clone: join(root, 'clone'), remote };
}
afterEach(() => dirs.splice(0).forEach(removeDir));

describe('resolveRepo', () => {
  it('answers the usual case from one rev-parse', async () => {
    const dir = initRepo();
    dirs.push(dir);
    const info = await resolveRepo(join(dir));
    expect(info).toMatchObject({ toplevel: dir, gitDir: join(dir, '.git'), commonDir: join(dir, '.git'), branch: 'main', isShallow: false, isBare: false });
    expect(info.head).toBe(gitIn(dir, 'rev-parse', 'HEAD'));
  });

  it('detached HEAD: no branch, id derived from the path', async () => {
    const dir = initRepo();
    dirs.push(dir);
    gitIn(dir, 'switch', '-q', '--detach');
    const info = await resolveRepo(dir);
    expect(info.branch).toBeNull();
    expect(info.head).toMatch(/^[0-9a-f]{40}$/);
    writeFiles(dir, { 'README.md': 'changed\n' });
    const scan = await collectAirspace(dir, options);
    expect(scan.ownship!.id).toMatch(/^worktree:.+-[0-9a-f]{8}$/);
    expect(scan.ownship!.uncommittedPaths).toEqual(['README.md']);
  });

  it('no commits yet: head null, branch known, untracked files are the ownship', async () => {
    const dir = tempDir();
    dirs.push(dir);
    gitIn(dir, 'init', '-q', '-b', 'trunk');
    const info = await resolveRepo(dir);
    expect(info).toMatchObject({ head: null, branch: 'trunk' });
    writeFiles(dir, { 'first.ts': 'export {};\n' });
    const before = userStateFingerprint(dir);
    const scan = await collectAirspace(dir, options);
    expect(userStateFingerprint(dir)).toBe(before);
    expect(scan.ownship).toMatchObject({ id: 'trunk', uncommittedPaths: ['first.ts'], facts: { committedWork: 0 } });
    expect(scan.traffic).toEqual([]);
    expect(scan.scanned.notes.join('\n')).toContain('no commits yet');
  });

  it('empty repository with nothing in it: no ownship, no failure', async () => {
    const dir = tempDir();
    dirs.push(dir);
    gitIn(dir, 'init', '-q');
    const scan = await collectAirspace(dir, options);
    expect(scan.ownship).toBeNull();
  });

  it('clear errors outside a repository, in a bare repository and inside .git', async () => {
    const outside = tempDir();
    dirs.push(outside);
    await expect(resolveRepo(outside)).rejects.toMatchObject({ kind: 'environment', code: 'not-a-repository' });
    gitIn(outside, 'init', '-q', '--bare', 'b.git');
    await expect(resolveRepo(join(outside, 'b.git'))).rejects.toMatchObject({ kind: 'environment', code: 'bare-repository' });
    const repo = initRepo();
    dirs.push(repo);
    await expect(resolveRepo(join(repo, '.git'))).rejects.toMatchObject({ code: 'not-in-worktree' });
  });

  it('shallow clone: flagged, and peers still compared or reported unknown — never dropped', async () => {
    const { root, clone: source } = remoteWithClone({ 'a.txt': 'a\n' });
    dirs.push(root);
    for (let i = 0; i < 3; i++) {
      writeFiles(source, { 'a.txt': `a${i}\n` });
      commitAll(source, `main ${i}`);
    }
    gitIn(source, 'push', '-q', 'origin', 'main');
    gitIn(source, 'switch', '-q', '-c', 'feature/peer');
    writeFiles(source, { 'b.txt': 'b\n' });
    commitAll(source, 'peer work');
    gitIn(source, 'push', '-q', 'origin', 'feature/peer');
    const shallow = join(root, 'shallow');
    gitIn(root, 'clone', '-q', '--depth', '1', '--no-single-branch', `file://${join(root, 'remote.git')}`, shallow);
    writeFiles(shallow, { 'a.txt': 'mine\n' });
    const scan = await collectAirspace(shallow, options);
    expect(scan.scanned.shallow).toBe(true);
    expect(scan.scanned.notes.join('\n')).toContain('shallow');
    const ids = [...scan.pairs.map((pair) => pair.b), ...scan.unknown.map((entry) => entry.id)];
    expect(ids).toContain('feature/peer');
  });
});
