import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitIn, removeDir } from '../helpers/temp-repo.js';
import {
  airspace,
  calls,
  clearCalls,
  commitFile,
  gitRun,
  installPackage,
  run,
  snapshotDir,
  userRepo,
  type InstalledPackage,
  type UserRepo,
} from './install-kit.js';

/**
 * A plain repository (no hook manager, no core.hooksPath): the packed tarball installed with npm,
 * `airspace-hooks install`, then real commits and pushes to a bare remote. See install-kit.ts for
 * how the package is packed and how CLI calls are recorded.
 */
let user: UserRepo;
let pkg: InstalledPackage;
let hooksDir: string;
let before: Record<string, string>;

beforeAll(() => {
  user = userRepo();
  pkg = installPackage(user.repo);
  hooksDir = join(user.repo, '.git', 'hooks');
  before = snapshotDir(hooksDir);
}, 240_000);

afterAll(() => removeDir(user.root));

describe('install in a plain repository', () => {
  it('writes both shims, executable and fingerprinted, into .git/hooks', () => {
    const result = airspace(pkg, user.repo, ['install']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('pre-commit: installed');
    expect(result.stdout).toContain('pre-push: installed');
    for (const hook of ['pre-commit', 'pre-push']) {
      const path = join(hooksDir, hook);
      expect(statSync(path).mode & 0o777).toBe(0o755);
      const text = readFileSync(path, 'utf8');
      expect(text.startsWith('#!/bin/sh\n')).toBe(true);
      expect(text).toMatch(/^# airspace-hooks:fingerprint v=\d+\.\d+\.\d+\S* sha=[0-9a-f]{12}$/m);
      // The installed shim is the shipped one, stamped.
      const shipped = readFileSync(join(pkg.packageDir, 'hooks', hook), 'utf8');
      expect(text.replace(/^# airspace-hooks:fingerprint .*$/m, '# airspace-hooks:fingerprint')).toBe(shipped);
    }
  });

  it('is idempotent: a second install changes nothing', () => {
    const installed = snapshotDir(hooksDir);
    const result = airspace(pkg, user.repo, ['install']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('pre-commit: already installed');
    expect(result.stdout).toContain('pre-push: already installed');
    expect(snapshotDir(hooksDir)).toEqual(installed);
  });

  // This test and the next run the real packed hook entry behind the recorder (install-kit.ts): they
  // prove what a separate "real packed hook entry answering, commit and push go through" test did.
  it('runs `airspace-hooks hook pre-commit` on git commit, and the commit goes through', () => {
    clearCalls(pkg);
    const commit = commitFile(user.repo, 'src/app.js', 'export const app = 2;\n');
    expect(commit.status, commit.stderr).toBe(0);
    expect(calls(pkg)).toEqual(['call:hook pre-commit']);
  });

  it("runs `airspace-hooks hook pre-push <remote> <url>` with git's ref lines on stdin, and the push lands", () => {
    clearCalls(pkg);
    const head = gitIn(user.repo, 'rev-parse', 'HEAD');
    const push = gitRun(user.repo, ['push', '-q', 'origin', 'main']);
    expect(push.status, push.stderr).toBe(0);
    expect(gitIn(user.remote, 'rev-parse', 'main')).toBe(head);
    const lines = calls(pkg);
    expect(lines[0]).toBe(`call:hook pre-push origin ${user.remote}`);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^stdin:refs/heads/main ${head} refs/heads/main [0-9a-f]{40}$`)));
  });

  it("honours the CLI's verdict: exit 1 blocks the commit and the push", () => {
    const commit = commitFile(user.repo, 'src/app.js', 'export const app = 3;\n', { AIRSPACE_E2E_VERDICT: '1' });
    expect(commit.status).not.toBe(0);
    gitIn(user.repo, 'commit', '-q', '--no-verify', '-m', 'edit past the hook');
    const remoteBefore = gitIn(user.remote, 'rev-parse', 'main');
    const push = gitRun(user.repo, ['push', '-q', 'origin', 'main'], { AIRSPACE_E2E_VERDICT: '1' });
    expect(push.status).not.toBe(0);
    expect(gitIn(user.remote, 'rev-parse', 'main')).toBe(remoteBefore);
  });

  it('AIRSPACE_HOOKS=0 skips the CLI entirely (no node started)', () => {
    clearCalls(pkg);
    const commit = commitFile(user.repo, 'src/app.js', 'export const app = 4;\n', { AIRSPACE_HOOKS: '0', AIRSPACE_E2E_VERDICT: '1' });
    expect(commit.status, commit.stderr).toBe(0);
    const push = gitRun(user.repo, ['push', '-q', 'origin', 'main'], { AIRSPACE_HOOKS: '0', AIRSPACE_E2E_VERDICT: '1' });
    expect(push.status, push.stderr).toBe(0);
    expect(calls(pkg)).toEqual([]);
  });

  it('with the CLI missing, says so in one line and lets the commit through', () => {
    const bin = join(user.repo, 'node_modules', '.bin', 'airspace-hooks');
    run(user.repo, 'mv', [bin, `${bin}.away`]);
    try {
      const commit = commitFile(user.repo, 'src/app.js', 'export const app = 5;\n');
      expect(commit.status, commit.stderr).toBe(0);
      const ours = commit.stderr.split('\n').filter((line) => line.startsWith('airspace-hooks:'));
      expect(ours).toEqual([expect.stringContaining('not installed here, commit not checked (fix: npm install')]);
    } finally {
      run(user.repo, 'mv', [`${bin}.away`, bin]);
    }
  });

  it("--version prints the installed airspace-hooks' version, not the host project's 1.0.0", () => {
    const own = (JSON.parse(readFileSync(join(pkg.packageDir, 'package.json'), 'utf8')) as { version: string }).version;
    expect(own).not.toBe('1.0.0');
    const result = airspace(pkg, user.repo, ['--version']);
    expect(result.stdout.trim()).toBe(own);
  });

  it('doctor reports both shims installed and the CLI found', () => {
    const result = airspace(pkg, user.repo, ['doctor']);
    expect(result.stdout).toMatch(/ok\s+pre-commit: installed/);
    expect(result.stdout).toMatch(/ok\s+pre-push: installed/);
    expect(result.stdout).not.toContain('FAIL');
    // A pure JavaScript project: TypeScript is not needed, so doctor does not ask for it.
    expect(result.stdout).not.toContain('TypeScript is not installed');
    expect(result.stdout).toContain('no TypeScript files');
  });

  it('uninstall leaves .git/hooks byte-identical to before install', () => {
    const result = airspace(pkg, user.repo, ['uninstall']);
    expect(result.status, result.stderr).toBe(0);
    expect(snapshotDir(hooksDir)).toEqual(before);
    const again = airspace(pkg, user.repo, ['uninstall']);
    expect(again.stdout).toContain('nothing to remove');
  });

  it('does nothing in CI unless forced', () => {
    const skipped = airspace(pkg, user.repo, ['install'], { CI: 'true' });
    expect(skipped.status).toBe(0);
    expect(skipped.stdout).toContain('CI detected');
    expect(snapshotDir(hooksDir)).toEqual(before);
    const forced = airspace(pkg, user.repo, ['install', '--force'], { CI: 'true' });
    expect(forced.status, forced.stderr).toBe(0);
    expect(Object.keys(snapshotDir(hooksDir))).toEqual(expect.arrayContaining(['pre-commit', 'pre-push']));
    airspace(pkg, user.repo, ['uninstall']);
    expect(snapshotDir(hooksDir)).toEqual(before);
  });
});
