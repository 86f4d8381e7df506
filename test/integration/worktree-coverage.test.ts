import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, existsSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitAll, gitIn, initRepo, pathWithCli, removeDir, runCli, tempDir, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * A harness-made worktree (as Claude Code and others make them): `extensions.worktreeConfig` and
 * its own `core.hooksPath` in `config.worktree`, pointing at a hooks dir of the harness. git runs
 * no airspace hook there, although `install` ran in the main worktree. Its peer must never be told
 * that it "has been advised"; doctor, from any worktree, names it with a fix that works; and
 * `install --worktree` protects it, `uninstall --worktree` gives the harness its hook back
 * byte for byte.
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const HARNESS_HOOK = '#!/bin/sh\necho "harness pre-push"\n';
const env = { PATH: pathWithCli() };

let main: string;
let ada: string;
let harness: string;
let harnessHooks: string;
const roots: string[] = [];

beforeAll(() => {
  main = initRepo({ 'notes.md': numbered(40) });
  const root = join(main, '..');
  ada = join(root, `${main.split('/').pop()}-ada`);
  harness = join(root, `${main.split('/').pop()}-zz`);
  harnessHooks = tempDir('airspace-harness-hooks-');
  roots.push(main, ada, harness, harnessHooks);
  expect(runCli(main, ['install'], env).status).toBe(0);
  gitIn(main, 'worktree', 'add', '-q', '-b', 'ada/work', ada);
  gitIn(main, 'worktree', 'add', '-q', '-b', 'zz-harness', harness);
  // What the harness does once the worktree exists: a hooks dir of its own for this worktree only.
  writeFileSync(join(harnessHooks, 'pre-push'), HARNESS_HOOK);
  chmodSync(join(harnessHooks, 'pre-push'), 0o755);
  gitIn(harness, 'config', 'extensions.worktreeConfig', 'true');
  gitIn(harness, 'config', '--worktree', 'core.hooksPath', harnessHooks);
  // ada has more committed work: it has right of way, the harness worktree must steer.
  writeFiles(ada, { 'notes.md': numbered(40).replace('line 10\n', 'line 10 ada\n') });
  commitAll(ada, 'ada: line 10');
  writeFiles(ada, { 'other.md': 'x\n' });
  commitAll(ada, 'ada: other');
  writeFiles(harness, { 'notes.md': numbered(40).replace('line 10\n', 'line 10 zz\n') });
  commitAll(harness, 'zz: line 10');
});

afterAll(() => roots.forEach(removeDir));

describe('a worktree whose own core.hooksPath runs no airspace hook', () => {
  it('the agent with right of way is told in one line that the peer runs no airspace hook, with the fix, and never that it was advised', () => {
    const text = runCli(ada, ['check'], env);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).not.toContain('has been advised');
    const hold = text.stdout.split('\n').filter((line) => line.includes('hold:'));
    expect(hold).toHaveLength(1);
    expect(hold[0]).toContain('zz-harness runs no airspace hook');
    expect(hold[0]).toContain('nobody will tell it to steer');
    // The same command doctor prints (the CLI is on PATH here): one that runs in that worktree.
    expect(hold[0]).toContain(`or protect it: cd ${harness} && airspace-hooks install --worktree`);

    const report = JSON.parse(runCli(ada, ['check', '--json'], env).stdout);
    const agents = new Map(report.agents.map((a: { id: string }) => [a.id, a]));
    expect(agents.get('zz-harness')).toMatchObject({
      protection: { protected: false, reason: 'foreign-hook', hooksDir: harnessHooks, hooksPath: { value: harnessHooks, scope: 'worktree' } },
    });
    expect(agents.get('ada/work')).toMatchObject({ kind: 'ownship', protection: { protected: true } });
    expect(agents.get('main')).toMatchObject({ protection: { protected: true } });
    expect(report.verdict).toMatchObject({ holdAgainst: ['zz-harness'], unadvised: ['zz-harness'] });
  });

  it('doctor from the main worktree and from the harness worktree lists it as a FAIL with a fix that works from there', () => {
    for (const cwd of [main, harness]) {
      const doctor = runCli(cwd, ['doctor'], env);
      expect(doctor.status, doctor.stdout).toBe(2);
      expect(doctor.stdout).toContain(`✗ worktrees: ${harness} (zz-harness) runs no airspace hook on push`);
      // The CLI is on PATH here (test/helpers/temp-repo.ts pathWithCli): the fix names it so, a command that runs there.
      expect(doctor.stdout).toContain(`fix: cd ${harness} && airspace-hooks install --worktree`);
      expect(doctor.stdout).not.toContain(`${ada} (ada/work) runs no`);
    }
    // Inside the harness worktree the installation lines name fixes that work there.
    const inside = runCli(harness, ['doctor'], env).stdout;
    expect(inside).toContain('install --worktree here');
    expect(inside).toContain('git config --worktree --unset core.hooksPath');
    expect(inside).not.toMatch(/run npx airspace-hooks install \(or unset core\.hooksPath\)/);
  });

  it('install --worktree joins the harness hooks dir (its hook kept, run first); uninstall --worktree gives it back byte for byte', () => {
    const installed = runCli(harness, ['install', '--worktree'], env);
    expect(installed.status, installed.stdout + installed.stderr).toBe(0);
    expect(readFileSync(join(harnessHooks, 'pre-push.airspace-original'), 'utf8')).toBe(HARNESS_HOOK);
    expect(runCli(ada, ['check'], env).stdout).toContain('hold: you have right of way; zz-harness has been advised to steer away');
    const healed = runCli(main, ['doctor'], env);
    expect(healed.stdout).toContain('✓ worktrees: airspace-hooks runs on push in all 3 worktrees');
    expect(healed.status, healed.stdout).toBe(0);

    const removed = runCli(harness, ['uninstall', '--worktree'], env);
    expect(removed.status).toBe(0);
    expect(readFileSync(join(harnessHooks, 'pre-push'), 'utf8')).toBe(HARNESS_HOOK);
    expect(existsSync(join(harnessHooks, 'pre-commit'))).toBe(false);
    expect(existsSync(join(harnessHooks, 'pre-push.airspace-original'))).toBe(false);
    // The shared hooks of every other worktree stay.
    expect(existsSync(join(main, '.git', 'hooks', 'pre-push'))).toBe(true);
    expect(runCli(main, ['doctor'], env).status).toBe(2);
  });

  it('the installed pre-commit of the agent with right of way says so too, as git runs it', () => {
    writeFiles(ada, { 'notes.md': numbered(40).replace('line 10\n', 'line 10 ada again\n') });
    gitIn(ada, 'add', '-A');
    const commit = spawnSync('git', ['commit', '-q', '-m', 'ada: again'], { cwd: ada, env: testEnv(env), encoding: 'utf8' });
    expect(commit.status, commit.stderr).toBe(0);
    expect(commit.stderr).toContain('zz-harness runs no airspace hook');
    expect(commit.stderr).not.toContain('has been advised');
  });

  it('core.hooksPath set in the global config sends every worktree elsewhere: doctor lists each one', () => {
    const dir = tempDir('airspace-global-');
    roots.push(dir);
    const global = join(dir, 'gitconfig');
    mkdirSync(join(dir, 'hooks'));
    writeFileSync(global, `[init]\n\tdefaultBranch = main\n[core]\n\thooksPath = ${join(dir, 'hooks')}\n`);
    const doctor = runCli(ada, ['doctor'], { ...env, GIT_CONFIG_GLOBAL: global });
    expect(doctor.status).toBe(2);
    expect(doctor.stdout).toContain(
      `✗ worktrees: ${main} (main) runs no airspace hook on push: core.hooksPath (global) sends git to ${join(dir, 'hooks')}, which has no pre-push hook`,
    );
    expect(doctor.stdout).toContain(`✗ worktrees: ${ada} (ada/work) runs no airspace hook on push`);
    // The worktree level still wins over the global one in the harness worktree.
    expect(doctor.stdout).toContain(
      `✗ worktrees: ${harness} (zz-harness) runs no airspace hook on push: core.hooksPath (worktree) sends git to ${harnessHooks}`,
    );
  });
});
