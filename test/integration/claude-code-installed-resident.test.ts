import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive } from '../helpers/processes.js';
import { mainAndPeer, RESIDENT_OFF, RESIDENT_ON, residentStatus, startResident } from '../helpers/resident-airspace.js';
import { removeDir, runCli, testEnv } from '../helpers/temp-repo.js';

/**
 * The command `install --claude-code` writes (examples/claude-code/pre-edit.cjs, the CommonJS hot
 * path; docs/decisions/resident.md, "The CommonJS hot path"), run as Claude Code runs it, answered by
 * the repository's running resident. The CommonJS client (dist/ask-resident.bundle.cjs) must find
 * the package as the ESM one does, or the resident reads it as another build and the check takes
 * the CLI path: here that path has no CLI (AIRSPACE_HOOKS_BIN names none), so only the resident's
 * answer passes. Real git, a real resident.
 */
const cleanup: string[] = [];
const residents: number[] = [];

afterAll(() => {
  for (const pid of residents) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  for (const dir of cleanup) removeDir(dir);
});

const served = (cwd: string) => (residentStatus(cwd) as unknown as { status: { served: number } }).status.served;

describe('the installed Claude Code edit check', () => {
  it('runs pre-edit.cjs and is answered by the running resident', async () => {
    const { main } = mainAndPeer('airspace-installed-edit-', 40, 60, cleanup);
    const installed = runCli(main, ['install', '--claude-code'], RESIDENT_OFF);
    expect(installed.status, installed.stderr).toBe(0);
    const settings = JSON.parse(readFileSync(join(main, '.claude', 'settings.json'), 'utf8'));
    const command = settings.hooks.PreToolUse[0].hooks[0].command as string;
    expect(command).toContain('examples/claude-code/pre-edit.cjs');

    await startResident(main, residents);
    const before = served(main);
    const result = spawnSync('sh', ['-c', command], {
      cwd: main,
      input: JSON.stringify({ hook_event_name: 'PreToolUse', cwd: main, tool_name: 'Edit', tool_input: { file_path: join(main, 'src/a.ts') } }),
      env: testEnv({ ...RESIDENT_ON, CLAUDE_PROJECT_DIR: main, AIRSPACE_HOOKS_BIN: join(main, 'no-such-cli') }),
      encoding: 'utf8',
      timeout: 60_000,
    });
    // Traffic (exit 0, stdout) or a steer (exit 2, stderr): either is the resident's verdict on src/a.ts.
    expect([0, 2], result.stderr).toContain(result.status);
    expect(`${result.stdout}${result.stderr}`).toMatch(/with peer .*src\/a\.ts/);
    expect(served(main)).toBeGreaterThan(before);
    expect(runCli(main, ['resident', 'stop'], RESIDENT_ON).stdout).toContain('stopped');
  });
});
