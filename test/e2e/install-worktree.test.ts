import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitIn, removeDir } from '../helpers/temp-repo.js';
import { airspace, calls, clearCalls, commitFile, gitRun, installPackage, snapshotDir, userRepo, type InstalledPackage, type UserRepo } from './install-kit.js';

/**
 * Parallel agents work in linked worktrees. Installed from a linked worktree, the shims go into
 * the hooks dir all worktrees share (the common git dir's hooks/), and fire in both. The linked
 * worktree has no node_modules of its own (it is gitignored): the shim finds the main worktree's.
 */
let user: UserRepo;
let pkg: InstalledPackage;
let worktree: string;
let hooksDir: string;
let before: Record<string, string>;

beforeAll(() => {
  user = userRepo();
  pkg = installPackage(user.repo);
  worktree = join(user.root, 'agent-2');
  gitIn(user.repo, 'worktree', 'add', '-q', '-b', 'agent-2', worktree);
  hooksDir = join(user.repo, '.git', 'hooks');
  before = snapshotDir(hooksDir);
}, 240_000);

afterAll(() => removeDir(user.root));

describe('install from a linked worktree', () => {
  it("writes the shims into the shared hooks dir, not into the worktree's git dir", () => {
    expect(existsSync(join(worktree, 'node_modules'))).toBe(false);
    const result = airspace(pkg, worktree, ['install']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(hooksDir);
    expect(Object.keys(snapshotDir(hooksDir))).toEqual(expect.arrayContaining(['pre-commit', 'pre-push']));
    expect(snapshotDir(join(user.repo, '.git', 'worktrees', 'agent-2'))).not.toHaveProperty('hooks/pre-commit');
  });

  it('the hooks fire in the linked worktree (CLI found through the main worktree) and in the main one', () => {
    clearCalls(pkg);
    const inWorktree = commitFile(worktree, 'src/app.js', 'export const app = "agent 2";\n');
    expect(inWorktree.status, inWorktree.stderr).toBe(0);
    const inMain = commitFile(user.repo, 'README.md', '# main\n');
    expect(inMain.status, inMain.stderr).toBe(0);
    expect(calls(pkg)).toEqual(['call:hook pre-commit', 'call:hook pre-commit']);
  });

  it('push from the linked worktree hands our CLI its branch on stdin, and lands', () => {
    clearCalls(pkg);
    const head = gitIn(worktree, 'rev-parse', 'HEAD');
    const push = gitRun(worktree, ['push', '-q', 'origin', 'agent-2']);
    expect(push.status, push.stderr).toBe(0);
    expect(gitIn(user.remote, 'rev-parse', 'agent-2')).toBe(head);
    expect(calls(pkg)).toEqual([`call:hook pre-push origin ${user.remote}`, `stdin:refs/heads/agent-2 ${head} refs/heads/agent-2 ${'0'.repeat(40)}`]);
  });

  it("a blocking verdict blocks the linked worktree's push", () => {
    gitIn(worktree, 'commit', '-q', '--allow-empty', '--no-verify', '-m', 'more');
    const push = gitRun(worktree, ['push', '-q', 'origin', 'agent-2'], { AIRSPACE_E2E_VERDICT: '1' });
    expect(push.status).not.toBe(0);
  });

  it('doctor from the linked worktree finds the shims and the CLI', () => {
    const doctor = airspace(pkg, worktree, ['doctor']);
    expect(doctor.stdout).toMatch(/ok\s+pre-commit: installed/);
    expect(doctor.stdout).not.toContain('FAIL');
  });

  it('uninstall from the main worktree leaves the shared hooks dir byte-identical', () => {
    const result = airspace(pkg, user.repo, ['uninstall']);
    expect(result.status, result.stderr).toBe(0);
    expect(snapshotDir(hooksDir)).toEqual(before);
  });
});
