import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { cloneTemplate } from '../helpers/copied-clones.js';
import { BIN, commitAll, gitIn, remoteWithClones, removeDir, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * A budget is a promise: a hook whose remote hangs (an ssh that never answers) kills what it
 * started and returns, saying in one line what it checked and what it did not; a push that
 * collides is still blocked on a repository that has no import graph at all, because the textual
 * check never waits for the graph.
 */
const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
// The three hung-remote cases start from the same one-clone repository: built once, copied per test.
let oneClone: ReturnType<typeof cloneTemplate>;
beforeAll(() => {
  oneClone = cloneTemplate({ 'src/a.ts': numbered(20) }, 1);
});
afterAll(() => oneClone?.dispose());

/** Runs the hook entry as git would, stdin = the pushed refs. Resolves with exit code and stderr. */
function runHook(cwd: string, args: string[], input: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'hook', ...args], { cwd, env: testEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('close', (code) => resolve({ code, stderr }));
    child.stdin.end(input);
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pid: number): Promise<boolean> {
  // SIGKILL is delivered at once but the kernel reaps asynchronously: give it a moment.
  for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 20));
  return !isAlive(pid);
}

/**
 * A one-clone repository whose remote is an ssh URL served by a fake ssh that records its pid and
 * hangs like a server that never answers. `pids()` reads the pids it recorded (none if never started).
 */
function hangingRemote(): { clone: string; pids: () => number[] } {
  const setup = oneClone.copy();
  const [clone] = setup.clones as [string];
  const pidFile = join(setup.root, 'ssh.pid');
  const fakeSsh = join(setup.root, 'fake-ssh');
  writeFileSync(fakeSsh, `#!/bin/sh\necho $$ >> '${pidFile}'\nexec sleep 300\n`);
  chmodSync(fakeSsh, 0o755);
  gitIn(clone, 'remote', 'set-url', 'origin', 'ssh://airspace.invalid/remote.git');
  gitIn(clone, 'config', 'core.sshCommand', fakeSsh);
  return { clone, pids: () => (existsSync(pidFile) ? readFileSync(pidFile, 'utf8').trim().split('\n').map(Number) : []) };
}

// The three hung-remote cases run concurrently: two of them wait out most of an 8 s budget on a
// hung transport while the worker's core idles, and each has its own repository and hook process
// (each uses its test context's `expect`). The colliding push, which works the CPU, runs after
// them alone: beside them it slowed their start-up past the budget on a loaded machine.
describe.concurrent('hook budgets on a hung remote', () => {
  it('a hung ssh transport is killed with its process group; the hook says what it checked and lets the push through', async ({ expect }) => {
    const { clone, pids: sshPids } = hangingRemote();
    gitIn(clone, 'switch', '-q', '-c', 'feature');
    writeFiles(clone, { 'src/a.ts': numbered(20).replace('line 3\n', 'line 3 changed\n') });
    const sha = commitAll(clone, 'change a');

    // Enough for the hook to reach its fetch on a loaded machine (node start-up alone took over 1 s
    // at load 20, and a 2 s budget was sometimes cut before the ssh started, testing nothing).
    const budgetMs = 8_000;
    const started = Date.now();
    const result = await runHook(
      clone,
      ['pre-push', 'origin', 'ssh://airspace.invalid/remote.git'],
      `refs/heads/feature ${sha} refs/heads/feature ${'0'.repeat(40)}\n`,
      {
        AIRSPACE_HOOKS_BUDGET_MS: String(budgetMs),
      },
    );
    const elapsed = Date.now() - started;

    expect(result.code, result.stderr).toBe(0);
    // It names the failed fetch: judged on the last fetched state (or, if cut, what was not checked).
    expect(result.stderr).toMatch(/fetch failed \(git fetch origin took longer than \d+ ms and was stopped\)|not checked: /);
    // Far from the 300 s the fake ssh would take: the hook did not wait for its transport.
    expect(elapsed).toBeLessThan(60_000);
    const pids = sshPids();
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) expect(await gone(pid), `fake ssh ${pid} still running`).toBe(true);
  });

  it('with failClosed, a hung remote blocks the push and says why, with the bypass', async ({ expect }) => {
    const { clone, pids: sshPids } = hangingRemote();
    writeFiles(clone, { '.airspacerc.json': JSON.stringify({ hooks: { 'pre-push': { failClosed: true } } }) });
    commitAll(clone, 'config');
    const sha = gitIn(clone, 'rev-parse', 'HEAD');
    // The fetch may take half of the budget; the rest is left to judge on the last fetched state.
    const result = await runHook(
      clone,
      ['pre-push', 'origin', 'ssh://airspace.invalid/remote.git'],
      `refs/heads/main ${sha} refs/heads/main ${'0'.repeat(40)}\n`,
      {
        AIRSPACE_HOOKS_BUDGET_MS: '8000',
      },
    );
    expect(result.code).toBe(1);
    // Whether the judging finished in the other half or was cut too, the line says why it blocks.
    expect(result.stderr).toMatch(/git fetch origin took longer than \d+ ms and was stopped/);
    expect(result.stderr).toMatch(/blocking because (pre-push\.)?failClosed is set/);
    expect(result.stderr).toContain('git push --no-verify');
    for (const pid of sshPids()) expect(await gone(pid)).toBe(true);
  });

  it('a budget too small to finish: the run is cut, its git processes killed, one line says what was and was not checked', async ({ expect }) => {
    const { clone, pids: sshPids } = hangingRemote();
    const sha = gitIn(clone, 'rev-parse', 'HEAD');
    // 100 ms: node's own start-up already spends most of it, so the run is cut wherever it is.
    const result = await runHook(clone, ['pre-push', 'origin', 'x'], `refs/heads/main ${sha} refs/heads/main ${'0'.repeat(40)}\n`, {
      AIRSPACE_HOOKS_BUDGET_MS: '100',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/reached its 100 ms budget.*; checked: .*; not checked: .*letting it through/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    for (const pid of sshPids()) expect(await gone(pid)).toBe(true);
  });
});

describe('hook budget on a repository with no import graph', () => {
  it('a colliding push in a repository with no import graph is blocked on the textual evidence, inside the default budget', async ({ expect }) => {
    const setup = remoteWithClones({ 'src/session.ts': numbered(80) }, 2);
    roots.push(setup.root);
    const [one, two] = setup.clones as [string, string];
    for (const [clone, tag] of [
      [one, 'one'],
      [two, 'two'],
    ] as const) {
      gitIn(clone, 'switch', '-q', '-c', `${tag}/work`);
      writeFiles(clone, { 'src/session.ts': numbered(80).replace('line 20\n', `line 20 ${tag}\n`) });
      commitAll(clone, `${tag}: edit line 20`);
    }
    gitIn(one, 'push', '-q', 'origin', 'one/work');
    const sha = gitIn(two, 'rev-parse', 'HEAD');
    const graphCache = join(gitIn(two, 'rev-parse', '--absolute-git-dir'), 'airspace', 'import-graph.json');
    expect(existsSync(graphCache)).toBe(false);
    const result = await runHook(two, ['pre-push', 'origin', setup.remote], `refs/heads/two/work ${sha} refs/heads/two/work ${'0'.repeat(40)}\n`, {
      AIRSPACE_HOOKS_BUDGET_MS: '15000',
    });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('RA  one/work');
    expect(result.stderr).toContain('git merge-tree');
    expect(result.stderr).toContain('git push --no-verify');
  });
});
