import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitAll, gitIn, pathWithCli, removeDir, runCli, writeFiles } from '../helpers/temp-repo.js';
import { isAlive } from '../helpers/processes.js';
import { mainAndPeer, numberedLines, RESIDENT_OFF, RESIDENT_ON, residentStatus, startResident } from '../helpers/resident-airspace.js';

/**
 * Answers from the warm airspace (src/resident/warm-airspace.ts, docs/decisions/resident.md): a
 * question whose inputs did not change since the resident's last run of that worktree is answered
 * without reading git in stages 1–3, and must give the one-shot verdict; a question after any
 * change — a file edited, a file staged, an index flag, a peer's commit — must not be answered from
 * what the last run sensed. Real repositories, the real CLI, a real resident.
 */
const cleanup: string[] = [];
const residents: number[] = [];

afterAll(() => {
  for (const pid of residents) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  for (const dir of cleanup) removeDir(dir);
});

interface Status {
  readonly state: string;
  readonly status: { readonly pid: number; readonly served: number; readonly servedWarm: number };
}
const status = (cwd: string) => residentStatus(cwd) as unknown as Status;

/** A report as data, without what differs between two runs of the same state: timings and the clock. */
function comparable(json: string): unknown {
  return JSON.parse(json, (key, value) => (key === 'durationMs' || key === 'ms' || key === 'at' || /AgeMs$|^ageMs$/.test(key) ? undefined : value));
}
const withoutTimings = (text: string) => text.replace(/\d+ ms\b/g, 'N ms');

/** Asks until an answer comes from the warm airspace (the first records what it sensed); at most five times. */
function askUntilWarm(cwd: string, args: readonly string[], env: Record<string, string> = {}) {
  for (let i = 0; i < 5; i++) {
    const before = status(cwd).status.servedWarm;
    const answer = runCli(cwd, args, { ...RESIDENT_ON, ...env });
    if (status(cwd).status.servedWarm === before + 1) return answer;
  }
  throw new Error('no answer came from the warm airspace');
}

/** The resident's answer and the one-shot one, on the same state. */
function expectSameAsOneShot(cwd: string, args: readonly string[], resident: ReturnType<typeof runCli>, env: Record<string, string> = {}): void {
  const oneShot = runCli(cwd, args, { ...RESIDENT_OFF, ...env });
  expect(resident.status).toBe(oneShot.status);
  if (args.includes('--json')) expect(comparable(resident.stdout)).toEqual(comparable(oneShot.stdout));
  else expect(resident.stdout).toBe(oneShot.stdout);
  expect(withoutTimings(resident.stderr)).toBe(withoutTimings(oneShot.stderr));
}

/**
 * What a change must show in: the advisories and how many uncommitted files the ownship has. The
 * first run after a change also refreshes the graph cache and adds a risk sample of a new value,
 * so the run after it differs in those (graph source, closure rate) whoever answers: compared here
 * is what the change itself moves, from the resident and from the one-shot path.
 */
function moved(answer: ReturnType<typeof runCli>) {
  const report = JSON.parse(answer.stdout) as { advisories: { level: string }[] };
  return { levels: report.advisories.map((a) => a.level), uncommitted: /"uncommittedFiles": (\d+)/.exec(answer.stdout)?.[1] };
}

describe('answers from the warm airspace', () => {
  it.each([
    ['an RA (both changed the same line: merge-tree conflict)', 40, 40, 'RA'],
    ['a TA (lines close together, no conflict)', 40, 44, 'TA'],
  ])('%s: `check --json` and `hook pre-commit --json` answered warm give the one-shot report', async (_name, mainLine, peerLine, level) => {
    const { main } = mainAndPeer('airspace-warm-', mainLine, peerLine, cleanup);
    for (let i = 0; i < 2; i++) expect(runCli(main, ['check', '--json'], RESIDENT_OFF).status).toBeLessThan(2);
    await startResident(main, residents);
    for (const args of [
      ['check', '--json'],
      ['hook', 'pre-commit', '--json'],
      ['hook', 'pre-commit'],
    ]) {
      const warm = askUntilWarm(main, args);
      expectSameAsOneShot(main, args, warm);
      if (args.includes('--json')) expect(moved(warm).levels).toEqual([level]);
    }
    expect(runCli(main, ['resident', 'stop'], RESIDENT_ON).stdout).toContain('stopped');
  });

  it("a linked worktree's hook, to which git exports GIT_DIR, is answered from the run a `check` there recorded", async () => {
    const { main, peer } = mainAndPeer('airspace-warm-linked-', 40, 44, cleanup);
    for (let i = 0; i < 2; i++) expect(runCli(peer, ['check', '--json'], RESIDENT_OFF).status).toBeLessThan(2);
    await startResident(main, residents);
    askUntilWarm(peer, ['check', '--json']);
    const gitDir = gitIn(peer, 'rev-parse', '--absolute-git-dir').trim();
    const hookEnv = { GIT_DIR: gitDir, GIT_INDEX_FILE: join(gitDir, 'index') };
    const args = ['hook', 'pre-commit', '--json'];
    const before = status(main).status.servedWarm;
    const answer = runCli(peer, args, { ...RESIDENT_ON, ...hookEnv });
    expect(status(main).status.servedWarm).toBe(before + 1);
    expectSameAsOneShot(peer, args, answer, hookEnv);
    expect(moved(answer).levels).toEqual(['TA']);
    expect(runCli(main, ['resident', 'stop'], RESIDENT_ON).stdout).toContain('stopped');
  });

  it('a change after the warm run is never answered from it: an edit, a new staged file, an index flag, an ignore rule, a hook installed, a graph rebuilt, a peer commit', async () => {
    const { main, peer } = mainAndPeer('airspace-warm-stale-', 40, 40, cleanup);
    for (let i = 0; i < 2; i++) expect(runCli(main, ['check', '--json'], RESIDENT_OFF).status).toBeLessThan(2);
    await startResident(main, residents);
    const args = ['check', '--json'];
    /** The resident's answer right after a change, and the one-shot path's on the same state. */
    const afterChange = () => {
      const resident = moved(runCli(main, args, RESIDENT_ON));
      expect(resident).toEqual(moved(runCli(main, args, RESIDENT_OFF)));
      return resident;
    };

    // The memo holds main's edit of line 40 against peer's: an RA, one uncommitted file.
    expect(moved(askUntilWarm(main, args))).toEqual({ levels: ['RA'], uncommitted: '1' });
    // main moves its edit away from peer's lines: no advisory left.
    writeFiles(main, { 'src/a.ts': numberedLines(80).replace('line 75\n', 'line 75 main\n') });
    expect(afterChange().levels).toEqual([]);

    // Back to the conflict, remembered again; then a new file, staged: main's work grows.
    writeFiles(main, { 'src/a.ts': numberedLines(80).replace('line 40\n', 'line 40 main\n') });
    expect(moved(askUntilWarm(main, args))).toEqual({ levels: ['RA'], uncommitted: '1' });
    writeFiles(main, { 'src/c.ts': 'export const c = 1;\n' });
    gitIn(main, 'add', 'src/c.ts');
    expect(afterChange()).toEqual({ levels: ['RA'], uncommitted: '2' });

    // Only the index changes: main's edit of src/a.ts marked assume-unchanged leaves its status,
    // so its work: the RA goes. No file in any worktree moved; only the index says so.
    expect(moved(askUntilWarm(main, args))).toEqual({ levels: ['RA'], uncommitted: '2' });
    gitIn(main, 'update-index', '--assume-unchanged', 'src/a.ts');
    expect(afterChange()).toEqual({ levels: [], uncommitted: '1' });
    gitIn(main, 'update-index', '--no-assume-unchanged', 'src/a.ts');

    // Files no watcher sees: git's ignore rules (info/exclude) drop an untracked file from main's
    // work; a hook installed makes the report stop saying the push will not be checked.
    writeFiles(main, { 'src/d.ts': 'export const d = 1;\n' });
    expect(moved(askUntilWarm(main, args))).toEqual({ levels: ['RA'], uncommitted: '3' });
    const exclude = join(gitIn(main, 'rev-parse', '--path-format=absolute', '--git-common-dir').trim(), 'info', 'exclude');
    appendFileSync(exclude, 'src/d.ts\n');
    expect(afterChange()).toEqual({ levels: ['RA'], uncommitted: '2' });
    const withCli = { PATH: pathWithCli() };
    expect(askUntilWarm(main, ['hook', 'pre-commit'], withCli).stderr).toContain('no airspace hook is installed');
    expect(runCli(main, ['install'], { ...RESIDENT_OFF, ...withCli }).status).toBe(0);
    const warmBefore = status(main).status.servedWarm;
    const hooked = runCli(main, ['hook', 'pre-commit'], { ...RESIDENT_ON, ...withCli });
    // install writes only under the git dir, which no watcher event covers: the answer is warm, its coverage read now.
    expect(status(main).status.servedWarm).toBe(warmBefore + 1);
    expect(withoutTimings(hooked.stderr)).toBe(withoutTimings(runCli(main, ['hook', 'pre-commit'], { ...RESIDENT_OFF, PATH: pathWithCli() }).stderr));
    expect(hooked.stderr).not.toContain('no airspace hook is installed');

    // The import graph rebuilt (its cache file, under the git dir, is no watcher's): the answer says the new build.
    const builtAt = (answer: ReturnType<typeof runCli>) => (JSON.parse(answer.stdout) as { scanned: { graph: { builtAt: number } } }).scanned.graph.builtAt;
    const before = builtAt(askUntilWarm(main, args));
    expect(runCli(main, ['graph', 'build', '--force'], RESIDENT_OFF).status).toBe(0);
    const rebuilt = runCli(main, args, RESIDENT_ON);
    expect(builtAt(rebuilt)).toBeGreaterThan(before);
    expect(builtAt(rebuilt)).toBe(builtAt(runCli(main, args, RESIDENT_OFF)));

    // A peer's commit: peer's work moves from line 40 to line 60; main's RA is gone.
    expect(moved(askUntilWarm(main, args)).levels).toEqual(['RA']);
    writeFiles(peer, { 'src/a.ts': numberedLines(80).replace('line 60\n', 'line 60 peer\n') });
    commitAll(peer, 'peer: elsewhere');
    expect(afterChange().levels).toEqual([]);
    expect(runCli(main, ['resident', 'stop'], RESIDENT_ON).stdout).toContain('stopped');
  });
});
