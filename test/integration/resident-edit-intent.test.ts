import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive } from '../helpers/processes.js';
import { mainAndPeer, numberedLines, RESIDENT_OFF, RESIDENT_ON, residentStatus, startResident } from '../helpers/resident-airspace.js';
import { commitAll, PROJECT_ROOT, removeDir, runCli, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * The resident's edit question declares its intent inside the check's run, on the run's own `git
 * rev-parse` (declareIntentInRun, src/app/intent.ts; docs/decisions/resident.md, "The edit check,
 * piece by piece"): the run must still judge the intent it has just declared, as `check` after
 * `intent add` does — also when the answer comes from the warm airspace — and a cwd below the top
 * level must read the path as `intent add` reads it there. Real git, a real resident.
 */
const cleanup: string[] = [];
const residents: number[] = [];

afterAll(() => {
  for (const pid of residents) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  for (const dir of cleanup) removeDir(dir);
});

interface Status {
  readonly state: string;
  readonly status: { readonly served: number; readonly servedWarm: number; readonly busy: boolean; readonly watching: number };
}
const status = (cwd: string) => residentStatus(cwd) as unknown as Status;

/** The Claude Code edit check (examples/claude-code/pre-edit.mjs) of `file` in `main`. */
const preEdit = (main: string, file: string, env: Record<string, string>) =>
  spawnSync(process.execPath, [join(PROJECT_ROOT, 'examples', 'claude-code', 'pre-edit.mjs')], {
    cwd: main,
    input: JSON.stringify({ hook_event_name: 'PreToolUse', cwd: main, tool_name: 'Edit', tool_input: { file_path: join(main, file) } }),
    env: testEnv(env),
    encoding: 'utf8',
    timeout: 60_000,
  });

describe("the resident's edit question", () => {
  it('judges the intent it declares, cold and warm, as `intent add` then `check` do', async () => {
    const { main, peer } = mainAndPeer('airspace-edit-intent-', 40, 60, cleanup);
    // The peer's work in files main has not touched: only main's intent meets it.
    const fresh = Array.from({ length: 8 }, (_, i) => `src/d${i}.ts`);
    writeFiles(peer, Object.fromEntries(['src/c.ts', ...fresh].map((file) => [file, numberedLines(20)])));
    commitAll(peer, 'peer: more files');
    await startResident(main, residents);

    const first = preEdit(main, 'src/c.ts', RESIDENT_ON);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/with peer .*src\/c\.ts/);
    // The same state asked one-shot (the intent is declared by now either way): the same lines.
    expect(preEdit(main, 'src/c.ts', RESIDENT_OFF).stdout).toBe(first.stdout);

    // A file not declared before, answered from the warm airspace (each try takes a fresh one, so
    // what it declares is always new): its intent is judged too. Only a watcher vouches for a memo.
    for (let i = 0; i < 600 && status(main).status.watching < 2; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    let warm: { file: string; answer: ReturnType<typeof preEdit> } | undefined;
    for (const file of fresh) {
      while (status(main).status.busy) await new Promise((resolve) => setTimeout(resolve, 100));
      const before = status(main).status.servedWarm;
      const answer = preEdit(main, file, RESIDENT_ON);
      if (status(main).status.servedWarm > before) {
        warm = { file, answer };
        break;
      }
    }
    expect(warm, 'no edit question was answered from the warm airspace').toBeDefined();
    expect(warm!.answer.stdout).toContain(warm!.file);
    expect(preEdit(main, warm!.file, RESIDENT_OFF).stdout).toBe(warm!.answer.stdout);
    expect(runCli(main, ['intent', 'list'], RESIDENT_OFF).stdout).toContain(warm!.file);
  });

  it('reads the path against a cwd below the top level as `intent add` does there', async () => {
    const { main } = mainAndPeer('airspace-edit-intent-below-', 40, 60, cleanup);
    await startResident(main, residents);
    const client = (await import(join(PROJECT_ROOT, 'dist', 'ask-resident.bundle.js'))) as {
      askResident: (commonDir: string, request: unknown) => Promise<{ ok: boolean; answer?: { added?: string[] } }>;
    };
    const asked = await client.askResident(join(main, '.git'), {
      type: 'edit',
      cwd: join(main, 'src'),
      env: testEnv(RESIDENT_ON),
      file: 'b.ts',
      ttlMs: 60_000,
    });
    expect(asked.ok).toBe(true);
    expect(asked.answer?.added).toEqual(['src/b.ts']);
    expect(runCli(main, ['intent', 'list'], RESIDENT_OFF).stdout).toMatch(/^ {2}src\/b\.ts$/m);
  });
});
