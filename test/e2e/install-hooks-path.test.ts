import { chmodSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitIn, removeDir } from '../helpers/temp-repo.js';
import { airspace, calls, clearCalls, commitFile, gitRun, installPackage, snapshotDir, userRepo, type InstalledPackage, type UserRepo } from './install-kit.js';

/**
 * core.hooksPath points at a directory some other tool or team script manages (`.githooks`, not
 * husky). Install refuses and explains; with --force it installs into that directory, chaining
 * the hook found there; uninstall gives the directory back unchanged.
 */
let user: UserRepo;
let pkg: InstalledPackage;
let teamHooks: string;
let defaultHooks: string;
let beforeTeam: Record<string, string>;
let beforeDefault: Record<string, string>;

beforeAll(() => {
  user = userRepo();
  pkg = installPackage(user.repo);
  teamHooks = join(user.repo, '.githooks');
  defaultHooks = join(user.repo, '.git', 'hooks');
  mkdirSync(teamHooks);
  writeFileSync(join(teamHooks, 'pre-commit'), '#!/bin/sh\necho "team pre-commit ran" >&2\n');
  chmodSync(join(teamHooks, 'pre-commit'), 0o755);
  gitIn(user.repo, 'add', '.githooks');
  gitIn(user.repo, 'commit', '-q', '--no-verify', '-m', 'team hooks');
  gitIn(user.repo, 'config', 'core.hooksPath', '.githooks');
  beforeTeam = snapshotDir(teamHooks);
  beforeDefault = snapshotDir(defaultHooks);
}, 240_000);

afterAll(() => removeDir(user.root));

describe('core.hooksPath set elsewhere', () => {
  it('refuses without --force, explains, and touches nothing', () => {
    const result = airspace(pkg, user.repo, ['install']);
    expect(result.status).not.toBe(0);
    expect(result.stdout + result.stderr).toContain('core.hooksPath is set to ".githooks"');
    expect(result.stdout + result.stderr).toContain('--force');
    expect(snapshotDir(teamHooks)).toEqual(beforeTeam);
    expect(snapshotDir(defaultHooks)).toEqual(beforeDefault);
  });

  it('--force installs into the hooksPath directory and chains the team hook', () => {
    const result = airspace(pkg, user.repo, ['install', '--force']);
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(join(teamHooks, 'pre-commit.airspace-original'), 'utf8')).toContain('team pre-commit ran');
    expect(snapshotDir(defaultHooks)).toEqual(beforeDefault);
    // Once ours are there, a plain install recognises them instead of refusing again.
    const again = airspace(pkg, user.repo, ['install']);
    expect(again.status, again.stdout).toBe(0);
    expect(again.stdout).toContain('already installed');
  });

  it('commit runs the team hook and then our CLI; push runs our CLI; both go through', () => {
    clearCalls(pkg);
    const commit = commitFile(user.repo, 'src/app.js', 'export const app = 2;\n');
    expect(commit.status, commit.stderr).toBe(0);
    expect(commit.stderr).toContain('team pre-commit ran');
    const push = gitRun(user.repo, ['push', '-q', 'origin', 'main']);
    expect(push.status, push.stderr).toBe(0);
    expect(calls(pkg).filter((line) => line.startsWith('call:'))).toEqual(['call:hook pre-commit', `call:hook pre-push origin ${user.remote}`]);
  });

  it('uninstall gives .githooks back byte-identical', () => {
    const result = airspace(pkg, user.repo, ['uninstall']);
    expect(result.status, result.stderr).toBe(0);
    expect(snapshotDir(teamHooks)).toEqual(beforeTeam);
    expect(snapshotDir(defaultHooks)).toEqual(beforeDefault);
  });
});
