import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, commitAll, gitIn, pathWithCli, PROJECT_ROOT, remoteWithClones, removeDir, runCli, tempDir, testEnv, writeFiles } from '../helpers/temp-repo.js';
import { gone, isAlive } from '../helpers/processes.js';
import {
  mainAndPeer,
  numberedLines,
  RESIDENT_OFF,
  RESIDENT_ON,
  residentStatus as residentStatusOf,
  type ResidentStatus,
} from '../helpers/resident-airspace.js';

/**
 * The resident process (docs/decisions/resident.md) answers with the one-shot path's own
 * functions: on the same states both give the same report. Real repositories with linked
 * worktrees, the real CLI, a real resident started as the hooks start it (`resident serve`).
 */
const numbered = numberedLines;
const ON = RESIDENT_ON;
const OFF = RESIDENT_OFF;
const cleanup: string[] = [];
const residents: number[] = [];

afterAll(async () => {
  for (const pid of residents) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  for (const dir of cleanup) removeDir(dir);
});

/** main and a linked worktree `peer`, both with work in src/a.ts. */
const airspace = (mainLine: number, peerLine: number) => mainAndPeer('airspace-resident-', mainLine, peerLine, cleanup);

/** Starts the resident of `cwd`'s repository from `bin` and waits until it answers. */
async function startResident(cwd: string, bin = BIN): Promise<number> {
  const child = spawn(process.execPath, [bin, 'resident', 'serve'], { cwd, env: testEnv(ON), stdio: 'ignore', detached: true });
  child.unref();
  residents.push(child.pid!);
  for (let i = 0; i < 600; i++) {
    const status = residentStatus(cwd, bin);
    if (status.state === 'running') return status.status.pid;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the resident did not start');
}

function residentStatus(cwd: string, bin = BIN): ResidentStatus {
  if (bin === BIN) return residentStatusOf(cwd);
  return JSON.parse(runCliWith(bin, cwd, ['resident', 'status', '--json'], ON).stdout) as ResidentStatus;
}

function runCliWith(bin: string, cwd: string, args: readonly string[], env: Record<string, string>) {
  return bin === BIN ? runCli(cwd, args, env) : spawnSync(process.execPath, [bin, ...args], { cwd, env: testEnv(env), encoding: 'utf8', timeout: 120_000 });
}

/** A report as data, without what differs between two runs of the same state: timings and the clock. */
function comparable(json: string): unknown {
  return JSON.parse(json, (key, value) => (key === 'durationMs' || key === 'ms' || key === 'at' || /AgeMs$|^ageMs$/.test(key) ? undefined : value));
}

/** The text report's own clock: "· 180 ms". */
const withoutTimings = (text: string) => text.replace(/\d+ ms\b/g, 'N ms');

describe('the resident process gives the one-shot verdict', () => {
  it.each([
    ['an RA (both changed the same line: merge-tree conflict)', 40, 40, 'RA'],
    ['a TA (lines close together, no conflict)', 40, 44, 'TA'],
  ])('%s: same report from `check --json` and `hook pre-commit --json`', async (_name, mainLine, peerLine, level) => {
    const { main } = airspace(mainLine, peerLine);
    // Two one-shot runs first: the graph cache, the snapshot cache and the risk history are then
    // what every later run finds, whoever runs it.
    for (let i = 0; i < 2; i++) expect(runCli(main, ['check', '--json'], OFF).status).toBeLessThan(2);
    await startResident(main);

    for (const args of [
      ['check', '--json'],
      ['hook', 'pre-commit', '--json'],
    ]) {
      const before = residentStatus(main).status.served;
      const resident = runCli(main, args, ON);
      expect(residentStatus(main).status.served, 'the resident answered').toBe(before + 1);
      const oneShot = runCli(main, args, OFF);
      expect(resident.status).toBe(oneShot.status);
      expect(comparable(resident.stdout)).toEqual(comparable(oneShot.stdout));
      expect(withoutTimings(resident.stderr)).toBe(withoutTimings(oneShot.stderr));
      const report = JSON.parse(resident.stdout) as { advisories: { level: string }[] };
      expect(report.advisories.map((a) => a.level)).toEqual([level]);
    }
    expect(runCli(main, ['resident', 'stop'], ON).stdout).toContain('stopped');
  });
});

/** Polls `cwd`'s resident status until `ready` holds (a generous deadline: a start is a Node start). */
async function waitForStatus(cwd: string, ready: (status: ReturnType<typeof residentStatus>) => boolean) {
  for (let i = 0; i < 1200; i++) {
    const status = residentStatus(cwd);
    if (ready(status)) return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the resident never reached the expected state');
}

describe('pre-push through the resident process', () => {
  it('blocks the push of the agent that must steer, as the one-shot hook does, with the pushed refs from stdin', async () => {
    const setup = remoteWithClones({ 'src/a.ts': numbered(60) }, 2);
    cleanup.push(setup.root);
    const [holder, agent] = setup.clones as [string, string];
    gitIn(holder, 'switch', '-q', '-c', 'holder/work');
    writeFiles(holder, { 'src/a.ts': numbered(60).replace('line 7\n', 'line 7 holder\n') });
    commitAll(holder, 'holder: work');
    gitIn(holder, 'push', '-q', 'origin', 'holder/work');
    gitIn(agent, 'switch', '-q', '-c', 'agent/work');
    writeFiles(agent, { 'src/a.ts': numbered(60).replace('line 7\n', 'line 7 agent\n') });
    const sha = commitAll(agent, 'agent: work');
    const stdin = `refs/heads/agent/work ${sha} refs/heads/agent/work ${'0'.repeat(40)}\n`;
    const push = (env: Record<string, string>) => runCli(agent, ['hook', 'pre-push', 'origin', setup.remote], env, stdin);
    const oneShot = push(OFF);
    await startResident(agent);
    const viaResident = push(ON);
    expect(residentStatus(agent).status.served).toBe(1);
    expect(oneShot.status).toBe(1);
    expect(viaResident.status).toBe(oneShot.status);
    expect(viaResident.stderr).toMatch(/RA +holder\/work/);
    expect(viaResident.stderr).toContain('--no-verify');
    expect(runCli(agent, ['resident', 'stop'], ON).stdout).toContain('stopped');
  });
});

describe('an unhealthy resident never costs a check', () => {
  it('after `kill -9` of the resident the next commit is checked by the one-shot path, which starts a new resident', async () => {
    const { main } = airspace(40, 40);
    const env = { ...ON, PATH: pathWithCli(), AIRSPACE_HOOKS_BUDGET_MS: '20000' };
    expect(runCli(main, ['install'], env).status).toBe(0);
    const first = await startResident(main);
    writeFiles(main, { 'src/b.ts': `${numbered(10)}more\n` });
    const viaResident = spawnSync('git', ['commit', '-q', '-a', '-m', 'main: work'], { cwd: main, env: testEnv(env), encoding: 'utf8' });
    expect(viaResident.status, viaResident.stderr).toBe(0);
    expect(residentStatus(main).status.served).toBe(1);
    expect(viaResident.stderr).toMatch(/RA +peer +risk 1\.00/);
    // `git commit -a` committed what it was asked to, with the hook reading git's own index.
    expect(gitIn(main, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n').sort()).toEqual(['src/a.ts', 'src/b.ts']);

    process.kill(first, 'SIGKILL');
    expect(await gone(first)).toBe(true);
    const info = join(gitIn(main, 'rev-parse', '--path-format=absolute', '--git-common-dir'), 'airspace', 'resident');
    expect(existsSync(join(info, 'socket')) && existsSync(join(info, 'resident.json')), 'kill -9 leaves its socket and info file').toBe(true);

    writeFiles(main, { 'src/a.ts': numbered(80).replace('line 40\n', 'line 40 main again\n') });
    const oneShot = runCli(main, ['hook', 'pre-commit'], { ...env, ...OFF });
    const afterKill = runCli(main, ['hook', 'pre-commit'], env);
    expect(afterKill.status).toBe(0);
    expect(afterKill.stderr).toMatch(/RA +peer +risk 1\.00/);
    expect(afterKill.stderr).not.toContain('budget');
    expect(withoutTimings(afterKill.stderr)).toBe(withoutTimings(oneShot.stderr));
    const second = await waitForStatus(main, (s) => s.state === 'running');
    expect(second.status.pid).not.toBe(first);
    residents.push(second.status.pid);
    expect(runCli(main, ['resident', 'stop'], ON).stdout).toContain('stopped');
    expect(await gone(second.status.pid)).toBe(true);
  });

  it('a resident of another build is not asked: the check runs one-shot and that resident serves nothing', async () => {
    const { main } = airspace(40, 44);
    const other = tempDir('airspace-other-build-');
    cleanup.push(other);
    for (const part of ['bin', 'dist']) cpSync(join(PROJECT_ROOT, part), join(other, part), { recursive: true });
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
    writeFileSync(join(other, 'package.json'), JSON.stringify({ ...pkg, version: '0.0.0-other' }));
    symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(other, 'node_modules'));
    const otherBin = join(other, 'bin', 'airspace-hooks.js');
    for (let i = 0; i < 2; i++) expect(runCli(main, ['check', '--json'], OFF).status).toBe(0);
    await startResident(main, otherBin);

    const checked = runCli(main, ['check', '--json'], ON);
    expect(checked.status).toBe(0);
    expect((JSON.parse(checked.stdout) as { advisories: { level: string }[] }).advisories.map((a) => a.level)).toEqual(['TA']);
    expect(comparable(checked.stdout)).toEqual(comparable(runCli(main, ['check', '--json'], OFF).stdout));
    expect(residentStatus(main).state).toBe('other-build');
    const otherStatus = JSON.parse(runCliWith(otherBin, main, ['resident', 'status', '--json'], ON).stdout) as { status: { served: number } };
    expect(otherStatus.status.served).toBe(0);
    expect(runCliWith(otherBin, main, ['resident', 'stop'], ON).stdout).toContain('stopped');
  });
});
