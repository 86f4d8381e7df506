import { existsSync, readFileSync, writeFileSync, chmodSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitIn, removeDir } from '../helpers/temp-repo.js';
import { airspace, calls, clearCalls, commitFile, installPackage, run, userRepo, type InstalledPackage, type UserRepo } from './install-kit.js';

/**
 * A linked worktree has no node_modules until someone installs there, and `npx airspace-hooks`
 * there asks the registry (E404: seen on eslint and vue). doctor, run there through the main
 * worktree's bin, prints fix lines that run from there; and a hook manager's hook with our
 * snippet finds the CLI in a linked worktree without the network.
 */
let user: UserRepo;
let pkg: InstalledPackage;
let worktree: string;
let mainBin: string;

beforeAll(() => {
  user = userRepo();
  pkg = installPackage(user.repo);
  worktree = join(user.root, 'agent-2');
  gitIn(user.repo, 'worktree', 'add', '-q', '-b', 'agent-2', worktree);
  mainBin = join(user.repo, 'node_modules', '.bin', 'airspace-hooks');
}, 240_000);

afterAll(() => removeDir(user.root));

/** The commands of doctor's `fix:` lines, without their explanation in parentheses. */
const fixCommands = (text: string): string[] =>
  text
    .split('\n')
    .flatMap((line) => /^\s+fix: (.*)$/.exec(line)?.[1] ?? [])
    .map((fix) => fix.replace(/ \([^)]*\)$/, ''));

describe('doctor in a linked worktree without node_modules', () => {
  it('every fix line that runs airspace-hooks names the main worktree’s bin, and runs from there', () => {
    expect(airspace(pkg, user.repo, ['install']).status).toBe(0);
    expect(existsSync(join(worktree, 'node_modules'))).toBe(false);
    const doctor = run(worktree, mainBin, ['doctor']);
    const fixes = fixCommands(doctor.stdout);
    const ours = fixes.filter((fix) => fix.includes('airspace-hooks'));
    // Never fetched and no import graph yet: two fix lines that run our CLI.
    expect(ours.length, doctor.stdout).toBeGreaterThanOrEqual(2);
    expect(doctor.stdout).not.toMatch(/npx airspace-hooks|pnpm exec airspace-hooks/);
    for (const fix of ours) {
      expect(fix.startsWith(`${mainBin} `), fix).toBe(true);
      const ran = run(worktree, 'sh', ['-c', fix]);
      expect(ran.status, `${fix}\n${ran.stderr}`).toBe(0);
    }
    // Fixed: doctor has nothing more to say about the fetch and the graph.
    expect(fixCommands(run(worktree, mainBin, ['doctor']).stdout).filter((fix) => fix.includes('airspace-hooks'))).toEqual([]);
  });

  it('from the main worktree the lines keep the manager’s runner', () => {
    rmSync(join(user.repo, '.git', 'airspace'), { recursive: true, force: true });
    const doctor = run(user.repo, mainBin, ['doctor']);
    expect(doctor.stdout).toContain('fix: npx airspace-hooks check --fetch');
  });
});

describe('a hook manager’s hook with our snippet, in a linked worktree without node_modules', () => {
  it('finds the CLI of the main worktree (npx --no-install asked the registry and failed the commit)', () => {
    expect(airspace(pkg, user.repo, ['uninstall']).status).toBe(0);
    writeFileSync(join(user.repo, '.simple-git-hooks.json'), '{ "pre-commit": "true" }\n');
    const install = airspace(pkg, user.repo, ['install']);
    rmSync(join(user.repo, '.simple-git-hooks.json'));
    const snippet = JSON.parse(`{${/"simple-git-hooks": \{[\s\S]*?\n\s*\}/.exec(install.stdout)?.[0] ?? ''}}`) as Record<string, Record<string, string>>;
    const command = snippet['simple-git-hooks']?.['pre-commit'] ?? '';
    expect(command).toContain('airspace-hooks hook pre-commit');
    // What simple-git-hooks writes for a command (its hook template), into the shared hooks dir.
    const hook = join(user.repo, '.git', 'hooks', 'pre-commit');
    writeFileSync(hook, `#!/bin/sh\n\nif [ "$SKIP_SIMPLE_GIT_HOOKS" = "1" ]; then\n    exit 0\nfi\n\n${command}\n`);
    chmodSync(hook, 0o755);
    clearCalls(pkg);
    const commit = commitFile(worktree, 'src/app.js', 'export const app = "agent 2";\n');
    expect(commit.status, commit.stderr).toBe(0);
    expect(calls(pkg)).toEqual(['call:hook pre-commit']);
    expect(readFileSync(hook, 'utf8')).toContain(command);
  });
});
