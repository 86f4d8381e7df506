import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { BIN, commitAll, gitIn, initRepo, removeDir, runCli, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * A committed `ignore` glob cannot freeze a hook (issue 24): `**\/a*a*…a*b` (20 `a*`) against a
 * peer's 36-character file name took picomatch 75 s in one synchronous call, inside a 2 s budget.
 * Such a glob is refused with one line naming the key; a glob within the limits is matched
 * without exponential cases, even against a 200-character name that would take picomatch hours.
 */
const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

/** A repository with `ignore` committed and a peer worktree holding an untracked file named `name`. */
function repoWithPeerFile(ignore: string, name: string): string {
  const repo = initRepo({ 'src/a.ts': 'export const a = 1;\n' });
  roots.push(repo);
  writeFiles(repo, { '.airspacerc.json': `${JSON.stringify({ ignore: [ignore] })}\n` });
  commitAll(repo, 'config');
  const peer = `${repo}-peer`;
  roots.push(peer);
  gitIn(repo, 'worktree', 'add', '-q', '-b', 'peer', peer);
  writeFiles(peer, { [join('src', name)]: 'peer work\n' });
  writeFiles(repo, { 'src/a.ts': 'export const a = 2;\n' });
  return repo;
}

/** The hook as git runs it; killed after `killAfterMs` so that a frozen hook fails the test, not the suite. */
function runPreCommit(cwd: string, budgetMs: number, killAfterMs: number): Promise<{ code: number | null; stderr: string; ms: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, 'hook', 'pre-commit'], {
      cwd,
      env: testEnv({ AIRSPACE_HOOKS_BUDGET_MS: String(budgetMs) }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    let stderr = '';
    let ms = 0;
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('exit', () => (ms = performance.now() - started));
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stderr, ms });
    });
  });
}

const BUDGET_MS = 2_000;
/** Generous: node's start and exit on a loaded machine; a frozen hook takes 75 s or more. */
const WITHIN = BUDGET_MS + 6_000;

describe.concurrent('a hostile ignore glob', () => {
  it('20 `a*` segments: refused with one line naming the key; the commit goes on at once and `check` exits 2', async ({ expect }) => {
    const repo = repoWithPeerFile(`**/${'a*'.repeat(20)}b`, 'a'.repeat(36));
    const run = await runPreCommit(repo, BUDGET_MS, 30_000);
    expect(run.ms, run.stderr).toBeLessThan(WITHIN);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stderr.trim().split('\n');
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/"ignore\.0" must be a glob of at most 256 characters and 8 wildcards/);
    const check = runCli(repo, ['check']);
    expect(check.status, check.stderr).toBe(2);
    expect(check.stderr).toContain('"ignore.0"');
  });

  it('8 wildcards against a 200-character peer file name: matched in time, the check finishes', async ({ expect }) => {
    // picomatch: C(200, 6) backtracking steps, hours.
    const repo = repoWithPeerFile(`**/${'a*'.repeat(7)}b`, 'a'.repeat(200));
    // A budget a loaded machine cannot cut: the point is the match, not the clock.
    const run = await runPreCommit(repo, 15_000, 30_000);
    expect(run.ms, run.stderr).toBeLessThan(15_000 + 6_000);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('vs 1 peer');
    expect(run.stderr).not.toMatch(/reached its|config/);
  });
});
