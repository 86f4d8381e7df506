import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, gitIn, removeDir } from '../helpers/temp-repo.js';
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
 * A repository using husky 9 (core.hooksPath = .husky/_, set by running husky itself). Install
 * adds a marked block to .husky/pre-commit (which the user has, without a final newline) and
 * creates .husky/pre-push; nothing under .git/hooks or .husky/_ changes. A fresh linked worktree
 * has no .husky/_ (husky gitignores it): doctor must say so.
 */
const USER_SCRIPT = 'echo "user husky pre-commit ran" >&2'; // deliberately no trailing newline

let user: UserRepo;
let pkg: InstalledPackage;
let beforeGitHooks: Record<string, string>;
let beforeRuntime: Record<string, string>;

beforeAll(() => {
  user = userRepo();
  pkg = installPackage(user.repo);
  const husky = run(user.repo, process.execPath, [join(PROJECT_ROOT, 'node_modules', 'husky', 'bin.js')]);
  if (husky.status !== 0) throw new Error(`husky failed: ${husky.stderr}`);
  expect(gitIn(user.repo, 'config', 'core.hooksPath')).toBe('.husky/_');
  writeFileSync(join(user.repo, '.husky', 'pre-commit'), USER_SCRIPT);
  gitIn(user.repo, 'add', '.husky/pre-commit');
  gitIn(user.repo, 'commit', '-q', '--no-verify', '-m', 'husky');
  beforeGitHooks = snapshotDir(join(user.repo, '.git', 'hooks'));
  beforeRuntime = snapshotDir(join(user.repo, '.husky', '_'));
}, 240_000);

afterAll(() => removeDir(user.root));

describe('install in a husky repository', () => {
  it('adds the marked block to .husky/pre-commit and creates .husky/pre-push', () => {
    const result = airspace(pkg, user.repo, ['install']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("hooks added to husky's scripts");
    const preCommit = readFileSync(join(user.repo, '.husky', 'pre-commit'), 'utf8');
    expect(preCommit.startsWith(`${USER_SCRIPT}\n# >>> airspace-hooks >>>\n`)).toBe(true);
    expect(preCommit.endsWith('# <<< airspace-hooks <<<\n')).toBe(true);
    expect(preCommit).toContain('hook pre-commit');
    const prePush = readFileSync(join(user.repo, '.husky', 'pre-push'), 'utf8');
    expect(prePush).toContain('# >>> airspace-hooks >>>');
    expect(prePush).toContain('hook pre-push "$@"');
    expect(snapshotDir(join(user.repo, '.git', 'hooks'))).toEqual(beforeGitHooks);
    expect(snapshotDir(join(user.repo, '.husky', '_'))).toEqual(beforeRuntime);
  });

  it('is idempotent', () => {
    const husky = snapshotDir(join(user.repo, '.husky'));
    const result = airspace(pkg, user.repo, ['install']);
    expect(result.stdout).toContain('already installed');
    expect(snapshotDir(join(user.repo, '.husky'))).toEqual(husky);
  });

  it('commit runs the user script and our CLI; push runs our CLI with the refs; both go through', () => {
    gitIn(user.repo, 'add', '.husky');
    gitIn(user.repo, 'commit', '-q', '--no-verify', '-m', 'airspace-hooks in husky');
    clearCalls(pkg);
    const commit = commitFile(user.repo, 'src/app.js', 'export const app = 2;\n');
    expect(commit.status, commit.stderr).toBe(0);
    expect(commit.stderr).toContain('user husky pre-commit ran');
    const head = gitIn(user.repo, 'rev-parse', 'HEAD');
    const push = gitRun(user.repo, ['push', '-q', 'origin', 'main']);
    expect(push.status, push.stderr).toBe(0);
    expect(gitIn(user.remote, 'rev-parse', 'main')).toBe(head);
    const lines = calls(pkg);
    expect(lines[0]).toBe('call:hook pre-commit');
    expect(lines[1]).toBe(`call:hook pre-push origin ${user.remote}`);
    expect(lines[2]).toMatch(new RegExp(`^stdin:refs/heads/main ${head} refs/heads/main [0-9a-f]{40}$`));
  });

  it('a blocking verdict from the CLI blocks the push through husky too', () => {
    gitIn(user.repo, 'commit', '-q', '--allow-empty', '--no-verify', '-m', 'more');
    const push = gitRun(user.repo, ['push', '-q', 'origin', 'main'], { AIRSPACE_E2E_VERDICT: '1' });
    expect(push.status).not.toBe(0);
  });

  it('doctor, in a fresh linked worktree and from the main one, reports the missing .husky/_', () => {
    const worktree = join(user.root, 'fresh-worktree');
    gitIn(user.repo, 'worktree', 'add', '-q', '-b', 'fresh', worktree);
    expect(existsSync(join(worktree, '.husky', '_'))).toBe(false);
    const doctor = airspace(pkg, worktree, ['doctor']);
    expect(doctor.stdout).toMatch(/FAIL .*\.husky\/_ is missing in this worktree/);
    // The main worktree's own hooks are fine, and its doctor names the worktree that runs none.
    const main = airspace(pkg, user.repo, ['doctor']);
    expect(main.stdout).not.toMatch(/FAIL .*is missing in this worktree/);
    expect(main.stdout).toContain(
      `✗ worktrees: ${worktree} (fresh) runs no airspace hook on push: husky's generated ${join(worktree, '.husky', '_')} is missing there`,
    );
    expect(main.stdout).toContain(`fix: cd ${worktree} && npx husky`);
    gitIn(user.repo, 'worktree', 'remove', '--force', worktree);
  });

  it('uninstall removes the block and the file it created: .husky as committed before install', () => {
    const result = airspace(pkg, user.repo, ['uninstall']);
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(join(user.repo, '.husky', 'pre-commit'), 'utf8')).toBe(USER_SCRIPT);
    expect(existsSync(join(user.repo, '.husky', 'pre-push'))).toBe(false);
    expect(snapshotDir(join(user.repo, '.git', 'hooks'))).toEqual(beforeGitHooks);
    expect(snapshotDir(join(user.repo, '.husky', '_'))).toEqual(beforeRuntime);
  });
});
