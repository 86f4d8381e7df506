import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitAll, gitIn, PROJECT_ROOT, remoteWithClones, removeDir, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * The Claude Code hook as `install --claude-code` writes it, run as Claude Code runs it, in a linked
 * worktree an agent works in: no node_modules there (the package lives in the main worktree's),
 * Claude Code's cwd a subdirectory (it follows `cd`), `tool_input.file_path` absolute. Exit 2 blocks
 * and feeds stderr to the model; any other non-zero exit is a non-blocking error shown to the user.
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const setup = remoteWithClones({ 'src/session.ts': numbered(60), 'src/billing.ts': numbered(20), '.gitignore': 'node_modules\n' }, 2);
const [holder, agent] = setup.clones as [string, string];
const worktree = join(setup.root, 'agent-worktree');
afterAll(() => removeDir(setup.root));

/** The package as npm puts it in the main worktree (its dependencies linked from ours). */
function installPackage(project: string): string {
  const root = join(project, 'node_modules', 'airspace-hooks');
  mkdirSync(root, { recursive: true });
  for (const part of ['package.json', 'bin', 'dist', 'hooks', 'examples']) cpSync(join(PROJECT_ROOT, part), join(root, part), { recursive: true });
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(root, 'node_modules'));
  return join(root, 'bin', 'airspace-hooks.js');
}

const cli = (cwd: string, bin: string, args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { cwd, env: testEnv(), encoding: 'utf8', timeout: 60_000 });
const settingsCommand = (dir: string) => JSON.parse(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')).hooks.PreToolUse[0].hooks[0].command as string;

/** Claude Code runs the command through a shell in the project dir, with the tool call on stdin. */
function runHook(command: string, projectDir: string, input: string, env: Record<string, string> = {}) {
  return spawnSync('sh', ['-c', command], {
    cwd: projectDir,
    input,
    env: testEnv({ CLAUDE_PROJECT_DIR: projectDir, ...env }),
    encoding: 'utf8',
    timeout: 60_000,
  });
}
const editInput = (cwd: string, file: string, tool = 'Edit') =>
  JSON.stringify({
    session_id: 'test-session',
    transcript_path: join(setup.root, 'transcript.jsonl'),
    cwd,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: tool,
    tool_input: tool === 'Write' ? { file_path: file, content: 'new\n' } : { file_path: file, old_string: 'line 7', new_string: 'line 7 agent' },
  });

describe('the Claude Code hook in a linked worktree', () => {
  let bin = '';
  it('install --claude-code from the main worktree covers the linked worktrees', () => {
    gitIn(holder, 'switch', '-q', '-c', 'holder/work');
    writeFiles(holder, { 'src/session.ts': numbered(60).replace('line 7\n', 'line 7 holder\n') });
    commitAll(holder, 'holder: session work');
    gitIn(holder, 'push', '-q', 'origin', 'holder/work');

    bin = installPackage(agent);
    gitIn(agent, 'worktree', 'add', '-q', '-b', 'agent/work', worktree);
    writeFiles(worktree, { 'src/session.ts': numbered(60).replace('line 7\n', 'line 7 agent\n') });
    gitIn(worktree, 'fetch', '-q', 'origin');

    const installed = cli(agent, bin, ['install', '--claude-code']);
    expect(installed.status, installed.stderr).toBe(0);
    expect(settingsCommand(agent)).toContain('$CLAUDE_PROJECT_DIR');
    expect(existsSync(join(worktree, '.claude', 'settings.json'))).toBe(true);
    expect(settingsCommand(worktree)).toBe(settingsCommand(agent));
  });

  it('the hook script compares repo-relative paths whatever the cwd (a subdirectory here)', () => {
    const script = join(PROJECT_ROOT, 'examples', 'claude-code', 'pre-edit.mjs');
    const result = spawnSync(process.execPath, [script], {
      cwd: join(worktree, 'src'),
      input: editInput(join(worktree, 'src'), join(worktree, 'src', 'session.ts')),
      env: testEnv(),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain('editing src/session.ts would collide with another agent');
  });

  it('from a subdirectory cwd, without node_modules in the worktree, blocks the colliding edit and withdraws its intent', () => {
    const command = settingsCommand(agent);
    const blocked = runHook(command, worktree, editInput(join(worktree, 'src'), join(worktree, 'src', 'session.ts')));
    expect(blocked.status, blocked.stderr).toBe(2);
    expect(blocked.stderr).toContain('editing src/session.ts would collide with another agent');
    expect(blocked.stderr).toContain('RA with holder/work');
    expect(cli(worktree, bin, ['intent', 'list', '--json']).stdout).not.toContain('src/session.ts');

    const allowed = runHook(command, worktree, editInput(join(worktree, 'src'), join(worktree, 'src', 'billing.ts'), 'Write'));
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(JSON.parse(cli(worktree, bin, ['intent', 'list', '--json']).stdout).intent).toEqual(['src/billing.ts']);
  });

  it('the intent it declares expires (30 minutes unless AIRSPACE_HOOKS_INTENT_TTL_MINUTES says otherwise)', () => {
    const gitDir = gitIn(worktree, 'rev-parse', '--path-format=absolute', '--git-dir');
    const stored = () => JSON.parse(readFileSync(join(gitDir, 'airspace', 'intent.json'), 'utf8'));
    const before = Date.now();
    const command = settingsCommand(agent);
    expect(runHook(command, worktree, editInput(worktree, join(worktree, 'src', 'billing.ts'))).status).toBe(0);
    const expires = stored().expiresAt['src/billing.ts'] as number;
    expect(expires).toBeGreaterThanOrEqual(before + 30 * 60_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 30 * 60_000);
    expect(runHook(command, worktree, editInput(worktree, join(worktree, 'src', 'billing.ts')), { AIRSPACE_HOOKS_INTENT_TTL_MINUTES: '5' }).status).toBe(0);
    expect(stored().expiresAt['src/billing.ts']).toBeLessThanOrEqual(Date.now() + 5 * 60_000);
  });

  it('malformed input, or no CLI anywhere, is one line and a non-blocking exit', () => {
    const command = settingsCommand(agent);
    const garbage = runHook(command, worktree, '{ not json');
    expect(garbage.status).toBe(1);
    expect(garbage.stderr.trim().split('\n')).toHaveLength(1);
    expect(garbage.stderr).toMatch(/^airspace-hooks: /);

    const elsewhere = join(setup.root, 'no-package');
    gitIn(setup.root, 'clone', '-q', setup.remote, elsewhere);
    const missing = runHook(command, elsewhere, editInput(elsewhere, join(elsewhere, 'src', 'session.ts')));
    expect(missing.status).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/^airspace-hooks: .*edit not checked/);
  });
});
