import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { cloneTemplate } from '../helpers/copied-clones.js';
import { BIN, commitAll, gitIn, testEnv, writeFiles } from '../helpers/temp-repo.js';
import { gone } from '../helpers/processes.js';

/**
 * A budget holds against anything git starts, not only against git: a transport that trickles
 * bytes through a connection that outlives it (ssh's ControlPersist master leaves git's process
 * group and keeps its stderr), a transport that leaves a background child after a *successful*
 * fetch, a slow clean filter, a slow user hook. Each of these kept a pipe of ours open for as long
 * as it lived (30 s here), and the hook waited for it. Wall time is measured from the hook's spawn
 * to its exit, as the user waits for it.
 *
 * Also: our own git calls never run the user's hooks (post-index-change on our temporary index,
 * reference-transaction on the refs a fetch updates, pre-push on the beacon's push).
 */
const LINGER_S = 30;
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;

let oneClone: ReturnType<typeof cloneTemplate>;
beforeAll(() => {
  oneClone = cloneTemplate({ 'src/a.ts': numbered(20) }, 1);
});
/** Processes a test left on purpose outside our reach (a setsid'ed "ControlPersist master"). */
const strays: string[] = [];
afterAll(() => {
  for (const file of strays) for (const pid of pidsIn(file)) kill(pid);
  oneClone?.dispose();
});

interface HookRun {
  readonly code: number | null;
  readonly stderr: string;
  /** From spawn to the hook process's exit. */
  readonly ms: number;
}

function runHook(cwd: string, args: string[], input: string, budgetMs: number): Promise<HookRun> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, 'hook', ...args], {
      cwd,
      env: testEnv({ AIRSPACE_HOOKS_BUDGET_MS: String(budgetMs) }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    let ms = 0;
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('exit', () => (ms = performance.now() - started));
    child.on('close', (code) => resolve({ code, stderr, ms }));
    child.stdin.end(input);
  });
}

/** Generous: the hook exits at its budget plus node's exit; a loaded machine adds seconds, never 30. */
const withinBudget = (budgetMs: number) => budgetMs + 6_000;

function pidsIn(file: string): number[] {
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map(Number) : [];
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function script(path: string, body: string): string {
  writeFileSync(path, `#!/bin/sh\n${body}`);
  chmodSync(path, 0o755);
  return path;
}

/**
 * User hooks that record that they ran (and then sleep): none may run from our own git calls.
 * pre-push is the airspace-hooks shim a user has installed; our beacon push must not re-enter it.
 */
function recordingHooks(clone: string, root: string): () => string[] {
  const marker = join(root, 'hooks-ran');
  const hooks = join(gitIn(clone, 'rev-parse', '--absolute-git-dir'), 'hooks');
  for (const hook of ['post-index-change', 'reference-transaction', 'pre-push']) {
    script(join(hooks, hook), `echo ${hook} >> '${marker}'\ncat > /dev/null\nsleep ${LINGER_S}\n`);
  }
  return () => (existsSync(marker) ? [...new Set(readFileSync(marker, 'utf8').trim().split('\n'))] : []);
}

/** A one-clone repository on a branch with one commit, whose remote is served by `fakeSsh`. */
function sshRemote(fakeSsh: (root: string) => string): { clone: string; root: string; stdin: string } {
  const setup = oneClone.copy();
  const [clone] = setup.clones as [string];
  gitIn(clone, 'remote', 'set-url', 'origin', `ssh://airspace.invalid${setup.remote}`);
  gitIn(clone, 'config', 'core.sshCommand', fakeSsh(setup.root));
  // Host and command only, as to a plain ssh: the fake runs the command it is given.
  gitIn(clone, 'config', 'ssh.variant', 'simple');
  gitIn(clone, 'switch', '-q', '-c', 'feature');
  writeFiles(clone, { 'src/a.ts': numbered(20).replace('line 3\n', 'line 3 changed\n') });
  const sha = commitAll(clone, 'change a');
  return { clone, root: setup.root, stdin: `refs/heads/feature ${sha} refs/heads/feature ${'0'.repeat(40)}\n` };
}

describe.concurrent('a budget holds against what git starts', () => {
  it('a trickling transport whose connection outlives the kill: pre-push returns at its budget', async ({ expect }) => {
    let persistent = '';
    const { clone, stdin } = sshRemote((dir) => {
      persistent = join(dir, 'persistent.pid');
      strays.push(persistent);
      // The command git asks for (its last argument), served one byte per 0.2 s; beside it a
      // "ControlPersist master" in a session of its own that keeps git's stderr open.
      return script(
        join(dir, 'trickle-ssh'),
        `for last; do :; done\nsetsid sh -c 'echo $$ >> "${persistent}"; exec sleep ${LINGER_S}' &\n` +
          `sh -c "$last" | perl -e '$|=1; while (sysread(STDIN, $c, 1)) { syswrite(STDOUT, $c); select(undef, undef, undef, 0.2) }'\n`,
      );
    });
    // Enough to reach the fetch on a loaded machine (which then gets half of what is left).
    const budgetMs = 6_000;
    const run = await runHook(clone, ['pre-push', 'origin', 'x'], stdin, budgetMs);
    expect(run.code, run.stderr).toBe(0);
    expect(run.ms, run.stderr).toBeLessThan(withinBudget(budgetMs));
    // It says what it could not check: the fetch never finished.
    expect(run.stderr).toMatch(/fetch failed \(git fetch origin took longer than \d+ ms and was stopped\)|not checked: fetch/);
    expect(pidsIn(persistent).length).toBeGreaterThan(0);
  });

  it('a transport that leaves a background child after a successful fetch: the run goes on and keeps its advisory', async ({ expect }) => {
    let lingering = '';
    const { clone, root, stdin } = sshRemote((dir) => {
      lingering = join(dir, 'lingering.pid');
      // `sleep &` inherits git's stderr, as a backgrounded ssh master does.
      return script(join(dir, 'linger-ssh'), `for last; do :; done\nsh -c 'echo $$ >> "${lingering}"; exec sleep ${LINGER_S}' &\nexec sh -c "$last"\n`);
    });
    const hooksRan = recordingHooks(clone, root);
    // Room to finish the whole check on a loaded machine (pre-push's default): the fetch
    // succeeded, nothing should be cut, and a run held by the child would end past it, at 30 s.
    const budgetMs = 15_000;
    const run = await runHook(clone, ['pre-push', 'origin', 'x'], stdin, budgetMs);
    expect(run.code, run.stderr).toBe(0);
    expect(run.ms, run.stderr).toBeLessThan(budgetMs);
    expect(run.stderr).not.toMatch(/reached its|fetch failed|checked: nothing/);
    expect(pidsIn(lingering).length).toBeGreaterThan(0);
    for (const pid of pidsIn(lingering)) expect(await gone(pid), `lingering transport child ${pid} still running`).toBe(true);
    // The fetch updated refs and the beacon was pushed: no user hook ran for either.
    expect(hooksRan()).toEqual([]);
  });

  it('a slow clean filter on an untracked file: pre-commit returns at its budget and the filter is killed', async ({ expect }) => {
    const setup = oneClone.copy();
    const [clone] = setup.clones as [string];
    const filterPids = join(setup.root, 'filter.pid');
    writeFiles(clone, { '.gitattributes': '*.slow filter=slow\n' });
    commitAll(clone, 'attributes');
    gitIn(clone, 'config', 'filter.slow.clean', `echo $$ >> '${filterPids}'; sleep ${LINGER_S}; cat`);
    writeFiles(clone, { 'notes.slow': 'untracked\n' });
    const budgetMs = 2_000;
    const run = await runHook(clone, ['pre-commit'], '', budgetMs);
    expect(run.code, run.stderr).toBe(0);
    expect(run.ms, run.stderr).toBeLessThan(withinBudget(budgetMs));
    expect(run.stderr).toMatch(/reached its 2000 ms budget/);
    expect(pidsIn(filterPids).length).toBeGreaterThan(0);
    for (const pid of pidsIn(filterPids)) expect(await gone(pid), `clean filter ${pid} still running`).toBe(true);
  });

  it('a slow user post-index-change hook never runs on our temporary index', async ({ expect }) => {
    const setup = oneClone.copy();
    const [clone] = setup.clones as [string];
    const hooksRan = recordingHooks(clone, setup.root);
    writeFiles(clone, { 'src/a.ts': numbered(21), 'src/new.ts': 'untracked\n' });
    const budgetMs = 2_000;
    const run = await runHook(clone, ['pre-commit'], '', budgetMs);
    expect(run.code, run.stderr).toBe(0);
    expect(run.ms, run.stderr).toBeLessThan(withinBudget(budgetMs));
    expect(hooksRan()).toEqual([]);
  });
});
