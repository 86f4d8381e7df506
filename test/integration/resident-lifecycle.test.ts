import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gone, isAlive } from '../helpers/processes.js';
import { BIN, commitAll, gitIn, initRepo, PROJECT_ROOT, removeDir, runCli, tempDir, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * The resident process's life (docs/decisions/resident.md): where its socket goes and who may
 * use it, when it leaves on its own, and the harnesses' edit check answered by it. Deadlines are
 * generous polls, never timings.
 */
const ON = { AIRSPACE_RESIDENT: 'on' };
const OFF = { AIRSPACE_RESIDENT: 'off' };
const cleanup: string[] = [];
const residents: number[] = [];
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;

afterAll(() => {
  for (const pid of residents) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  for (const dir of cleanup) removeDir(dir);
});

interface Status {
  state: string;
  status: { pid: number; served: number; socket: string };
}

function status(cwd: string, bin = BIN): Status {
  return JSON.parse(spawnSync(process.execPath, [bin, 'resident', 'status', '--json'], { cwd, env: testEnv(ON), encoding: 'utf8' }).stdout) as Status;
}

async function startResident(cwd: string, bin = BIN): Promise<Status['status']> {
  const child = spawn(process.execPath, [bin, 'resident', 'serve'], { cwd, env: testEnv(ON), stdio: 'ignore', detached: true });
  child.unref();
  residents.push(child.pid!);
  for (let i = 0; i < 600; i++) {
    const now = status(cwd, bin);
    if (now.state === 'running') return now.status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the resident did not start');
}

/** A package of another build: a copy of bin/ and dist/ with its own package.json. */
function otherBuild(): { root: string; bin: string } {
  const root = tempDir('airspace-other-build-');
  cleanup.push(root);
  for (const part of ['bin', 'dist']) cpSync(join(PROJECT_ROOT, part), join(root, part), { recursive: true });
  writeFileSync(join(root, 'package.json'), readFileSync(join(PROJECT_ROOT, 'package.json')));
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(root, 'node_modules'));
  return { root, bin: join(root, 'bin', 'airspace-hooks.js') };
}

describe('the resident process', () => {
  it('binds a user-only socket; past the socket path limit, in a per-user 0700 directory under the temp dir', async () => {
    const root = tempDir('airspace-resident-');
    cleanup.push(root);
    const near = initRepo({ 'a.txt': 'a\n' }, join(root, 'near'));
    const far = join(root, 'a-directory-name-long-enough'.repeat(3), 'that-the-socket-path-passes-the-limit');
    mkdirSync(far, { recursive: true });
    initRepo({ 'a.txt': 'a\n' }, far);

    const nearStatus = await startResident(near);
    expect(nearStatus.socket).toBe(join(near, '.git', 'airspace', 'resident', 'socket'));
    expect(statSync(join(near, '.git', 'airspace', 'resident')).mode & 0o777).toBe(0o700);
    expect(statSync(nearStatus.socket).mode & 0o777).toBe(0o600);

    const farStatus = await startResident(far);
    expect(Buffer.byteLength(join(far, '.git', 'airspace', 'resident', 'socket'))).toBeGreaterThan(104);
    expect(farStatus.socket.startsWith(join(tmpdir(), `airspace-hooks-${process.getuid?.()}`))).toBe(true);
    expect(statSync(join(tmpdir(), `airspace-hooks-${process.getuid?.()}`)).mode & 0o777).toBe(0o700);
    expect(statSync(farStatus.socket).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(far, '.git', 'airspace', 'resident', 'resident.json'), 'utf8')).socket).toBe(farStatus.socket);
    // One per repository: a second one sees the lock and leaves at once.
    const second = spawnSync(process.execPath, [BIN, 'resident', 'serve'], { cwd: far, env: testEnv(ON), encoding: 'utf8', timeout: 60_000 });
    expect(second.status).toBe(0);
    expect(second.stderr).toContain('another resident process serves this repository');

    for (const repo of [near, far]) expect(runCli(repo, ['resident', 'stop'], ON).stdout).toContain('stopped');
    expect(await gone(nearStatus.pid)).toBe(true);
    expect(await gone(farStatus.pid)).toBe(true);
    expect(runCli(near, ['resident', 'status'], ON).stdout).toContain('no resident process');
  });

  it('reads as busy while alive but silent, and as gone once killed', async () => {
    const root = tempDir('airspace-resident-busy-');
    cleanup.push(root);
    const repo = initRepo({ 'a.ts': numbered(5) }, join(root, 'repo'));
    const { pid } = await startResident(repo);
    process.kill(pid, 'SIGSTOP');
    try {
      const silent = status(repo);
      expect(silent.state).toBe('busy');
      expect(runCli(repo, ['resident', 'status'], ON).stdout).toContain('did not answer in time');
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    // Once resumed it answers again (a poll: on a loaded machine the first answer may be slow).
    let state = status(repo).state;
    for (let i = 0; i < 60 && state !== 'running'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      state = status(repo).state;
    }
    expect(state).toBe('running');
    process.kill(pid, 'SIGKILL');
    await gone(pid);
    expect(status(repo).state).toBe('stale');
  });

  it('exits when its repository is removed, and when another build is installed under it', async () => {
    const root = tempDir('airspace-resident-');
    cleanup.push(root);
    const doomed = initRepo({ 'a.txt': 'a\n' }, join(root, 'doomed'));
    const first = await startResident(doomed);
    removeDir(doomed);
    expect(await gone(first.pid)).toBe(true);

    const repo = initRepo({ 'a.txt': 'a\n' }, join(root, 'kept'));
    const build = otherBuild();
    const second = await startResident(repo, build.bin);
    const pkg = JSON.parse(readFileSync(join(build.root, 'package.json'), 'utf8')) as { version: string };
    writeFileSync(join(build.root, 'package.json'), JSON.stringify({ ...pkg, version: `${pkg.version}-newer` }));
    expect(await gone(second.pid)).toBe(true);
    expect(runCli(repo, ['resident', 'status'], ON).stdout).toContain('no resident process');
  });

  it('answers the Claude Code edit check as the CLI does: the intent declared, the same advisories', async () => {
    const root = tempDir('airspace-resident-');
    cleanup.push(root);
    const main = initRepo({ 'src/a.ts': numbered(60), 'src/b.ts': numbered(10) }, join(root, 'main'));
    const peer = join(root, 'peer');
    gitIn(main, 'worktree', 'add', '-q', '-b', 'peer', peer);
    writeFiles(peer, { 'src/a.ts': numbered(60).replace('line 7\n', 'line 7 peer\n') });
    commitAll(peer, 'peer: work');
    writeFiles(main, { 'src/a.ts': numbered(60).replace('line 7\n', 'line 7 main\n') });
    const preEdit = (file: string, env: Record<string, string>) =>
      spawnSync(process.execPath, [join(PROJECT_ROOT, 'examples', 'claude-code', 'pre-edit.mjs')], {
        cwd: main,
        input: JSON.stringify({ hook_event_name: 'PreToolUse', cwd: main, tool_name: 'Edit', tool_input: { file_path: join(main, file) } }),
        env: testEnv(env),
        encoding: 'utf8',
        timeout: 60_000,
      });
    const oneShot = preEdit('src/a.ts', OFF);
    const started = await startResident(main);
    const viaResident = preEdit('src/a.ts', ON);
    // The edit, and (it must steer: exit 2) the withdrawal of the intent it declared.
    expect(status(main).status.served).toBe(started.served + 2);
    expect(viaResident.status).toBe(2);
    expect(viaResident.status).toBe(oneShot.status);
    expect(viaResident.stdout).toBe(oneShot.stdout);
    expect(viaResident.stderr).toBe(oneShot.stderr);
    expect(viaResident.stderr).toMatch(/RA with peer/);
    expect(runCli(main, ['intent', 'list'], OFF).stdout).not.toContain('src/a.ts');

    const other = preEdit('src/b.ts', ON);
    expect(other.status, other.stderr).toBe(0);
    expect(runCli(main, ['intent', 'list'], OFF).stdout).toContain('src/b.ts');
    expect(runCli(main, ['resident', 'stop'], ON).stdout).toContain('stopped');
  });

  it("answers the other harnesses' edit check too (the shared core asks it first); a patch of several files takes the CLI path", async () => {
    const root = tempDir('airspace-resident-');
    cleanup.push(root);
    const main = initRepo({ 'src/a.ts': numbered(60), 'src/b.ts': numbered(10) }, join(root, 'main'));
    const peer = join(root, 'peer');
    gitIn(main, 'worktree', 'add', '-q', '-b', 'peer', peer);
    writeFiles(peer, { 'src/a.ts': numbered(60).replace('line 7\n', 'line 7 peer\n') });
    commitAll(peer, 'peer: work');
    writeFiles(main, { 'src/a.ts': numbered(60).replace('line 7\n', 'line 7 main\n') });
    const run = (script: string[], input: unknown, env: Record<string, string>) =>
      spawnSync(process.execPath, [join(PROJECT_ROOT, 'examples', ...script)], {
        cwd: main,
        input: JSON.stringify(input),
        env: testEnv(env),
        encoding: 'utf8',
        timeout: 60_000,
      });
    const cursor = (env: Record<string, string>) =>
      run(
        ['cursor', 'pre-tool-use.mjs'],
        { hook_event_name: 'preToolUse', cwd: main, tool_name: 'Write', tool_input: { file_path: join(main, 'src/a.ts') } },
        env,
      );
    const oneShot = cursor(OFF);
    const started = await startResident(main);
    const viaResident = cursor(ON);
    // The edit, and (it must steer: deny) the withdrawal of the intent it declared.
    expect(status(main).status.served).toBe(started.served + 2);
    expect(viaResident.status, viaResident.stderr).toBe(0);
    expect(viaResident.stdout).toBe(oneShot.stdout);
    expect(JSON.parse(viaResident.stdout)).toMatchObject({ permission: 'deny' });
    expect(runCli(main, ['intent', 'list'], OFF).stdout).not.toContain('src/a.ts');

    const patch = ['*** Begin Patch', '*** Update File: src/a.ts', '*** Update File: src/b.ts', '*** End Patch'].join('\n');
    const codex = run(
      ['codex', 'pre-tool-use.mjs'],
      { hook_event_name: 'PreToolUse', cwd: main, tool_name: 'apply_patch', tool_input: { command: patch } },
      ON,
    );
    expect(codex.status, codex.stderr).toBe(0);
    expect(JSON.parse(codex.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    // Two files: the CLI declares them (the resident's question names one); its `check` asks the resident.
    expect(status(main).status.served).toBe(started.served + 3);
    expect(runCli(main, ['resident', 'stop'], ON).stdout).toContain('stopped');
  });

  it("re-scores a worktree when its files change: the RA reaches the other agent's inbox before anyone commits", async () => {
    const root = tempDir('airspace-resident-');
    cleanup.push(root);
    const main = initRepo({ 'a.txt': numbered(60) }, join(root, 'main'));
    const peer = join(root, 'peer');
    gitIn(main, 'worktree', 'add', '-q', '-b', 'peer', peer);
    writeFiles(main, { 'a.txt': numbered(60).replace('line 7\n', 'line 7 main\n') });
    const started = await startResident(main);
    const inbox = () => JSON.parse(runCli(main, ['inbox', '--json'], OFF).stdout) as { messages: { from: string; level: string }[] };
    expect(inbox().messages).toEqual([]);

    writeFiles(peer, { 'a.txt': numbered(60).replace('line 7\n', 'line 7 peer\n') });
    let messages: { from: string; level: string }[] = [];
    for (let i = 0; i < 1200 && messages.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      messages = inbox().messages;
    }
    expect(messages.map((m) => [m.from, m.level])).toEqual([['peer', 'RA']]);
    // Nothing was asked: the watcher did it.
    expect(status(main).status.served).toBe(started.served);
    expect(runCli(main, ['resident', 'stop'], ON).stdout).toContain('stopped');
  });
});
