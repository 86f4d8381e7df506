import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initRepo, removeDir, runCli, testEnv } from '../helpers/temp-repo.js';

/**
 * `install --claude-code` / `uninstall` on `.claude/settings.json`: created when absent, merged
 * with what is there, idempotent, restored byte for byte — and the hook it writes really runs.
 */
const repos: string[] = [];
afterEach(() => {
  for (const dir of repos.splice(0)) removeDir(dir);
});

function repo(): string {
  const dir = initRepo({ 'src/a.ts': 'export const a = 1;\n' });
  repos.push(dir);
  return dir;
}

const settingsOf = (dir: string) => join(dir, '.claude', 'settings.json');

describe('install --claude-code', () => {
  // One first install in a fresh repository serves the first test (what it wrote, then a second
  // install and uninstall) and the last one (the hook command it wrote, run in that repository):
  // the hook keeps its intent in .git/airspace, not in .claude, so neither test sees the other.
  let fresh: string;
  let first: ReturnType<typeof runCli>;
  let written: Buffer;
  beforeAll(() => {
    fresh = initRepo({ 'src/a.ts': 'export const a = 1;\n' });
    first = runCli(fresh, ['install', '--claude-code']);
    written = readFileSync(settingsOf(fresh));
  });
  afterAll(() => removeDir(fresh));

  it('creates the settings with the PreToolUse hook, a second run changes nothing, uninstall removes what it created', () => {
    const dir = fresh;
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain('Claude Code: created');
    const settings = JSON.parse(written.toString('utf8'));
    expect(settings.hooks.PreToolUse).toHaveLength(1);
    expect(settings.hooks.PreToolUse[0]).toMatchObject({ matcher: 'Edit|MultiEdit|Write|NotebookEdit', hooks: [{ type: 'command', timeout: 30 }] });
    // A package outside the project: its absolute path, and one line when it is gone.
    expect(settings.hooks.PreToolUse[0].hooks[0].command).toMatch(
      /^f=".*examples\/claude-code\/pre-edit\.cjs"; \[ -f "\$f" \] && exec node "\$f"; echo '[^']+' >&2; exit 1$/,
    );

    const second = runCli(dir, ['install', '--claude-code']);
    expect(second.stdout).toContain('Claude Code: already installed');
    expect(readFileSync(settingsOf(dir)).equals(written)).toBe(true);

    const removed = runCli(dir, ['uninstall']);
    expect(removed.stdout).toContain('Claude Code: removed');
    expect(existsSync(join(dir, '.claude'))).toBe(false);
  });

  it('merges into existing settings, keeping every key and hook, and uninstall restores the bytes exactly', () => {
    const dir = repo();
    mkdirSync(join(dir, '.claude'));
    const original =
      '{\n\t"permissions": {"allow": ["Bash(npm test)"]},\n\t"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo mine"}]}], "Stop": []}\n}';
    writeFileSync(settingsOf(dir), original);
    expect(runCli(dir, ['install', '--claude-code']).stdout).toContain('Claude Code: added the PreToolUse hook to');
    const merged = JSON.parse(readFileSync(settingsOf(dir), 'utf8'));
    expect(merged.permissions).toEqual({ allow: ['Bash(npm test)'] });
    expect(merged.hooks.Stop).toEqual([]);
    expect(merged.hooks.PreToolUse.map((g: { matcher: string }) => g.matcher)).toEqual(['Bash', 'Edit|MultiEdit|Write|NotebookEdit']);

    expect(runCli(dir, ['uninstall']).stdout).toContain('restored');
    expect(readFileSync(settingsOf(dir), 'utf8')).toBe(original);
  });

  it('after a user edit, uninstall takes out only our entry and keeps the edit', () => {
    const dir = repo();
    runCli(dir, ['install', '--claude-code']);
    const edited = JSON.parse(readFileSync(settingsOf(dir), 'utf8'));
    edited.model = 'opus';
    writeFileSync(settingsOf(dir), JSON.stringify(edited));
    expect(runCli(dir, ['uninstall']).stdout).toContain('was edited since install');
    expect(JSON.parse(readFileSync(settingsOf(dir), 'utf8'))).toEqual({ model: 'opus' });
  });

  it('replaces the entry of an older release (whose command crashed without node_modules), and uninstall still restores the bytes', () => {
    const dir = repo();
    mkdirSync(join(dir, '.claude'));
    const original = '{"model": "opus"}';
    writeFileSync(settingsOf(dir), original);
    runCli(dir, ['install', '--claude-code']);
    const current = JSON.parse(readFileSync(settingsOf(dir), 'utf8'));
    const command = current.hooks.PreToolUse[0].hooks[0].command;
    current.hooks.PreToolUse[0].hooks[0].command = 'node "/old/place/examples/claude-code/pre-edit.mjs"';
    writeFileSync(settingsOf(dir), JSON.stringify(current));
    expect(runCli(dir, ['install', '--claude-code']).stdout).toContain('Claude Code: updated the hook command');
    const updated = JSON.parse(readFileSync(settingsOf(dir), 'utf8'));
    expect(updated.hooks.PreToolUse.map((g: { hooks: { command: string }[] }) => g.hooks[0]!.command)).toEqual([command]);
    expect(runCli(dir, ['install', '--claude-code']).stdout).toContain('Claude Code: already installed');
    expect(runCli(dir, ['uninstall']).stdout).toContain('restored');
    expect(readFileSync(settingsOf(dir), 'utf8')).toBe(original);
  });

  it('refuses a settings file that is not JSON, in one line, and leaves it untouched', () => {
    const dir = repo();
    mkdirSync(join(dir, '.claude'));
    writeFileSync(settingsOf(dir), '{ not json');
    const result = runCli(dir, ['install', '--claude-code']);
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toMatch(/settings\.json is not valid JSON; fix it/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(readFileSync(settingsOf(dir), 'utf8')).toBe('{ not json');
  });

  it('the written hook command runs as Claude Code would run it', () => {
    const dir = fresh;
    expect(first.status, first.stderr).toBe(0);
    const command = JSON.parse(written.toString('utf8')).hooks.PreToolUse[0].hooks[0].command as string;
    const input = JSON.stringify({ hook_event_name: 'PreToolUse', cwd: dir, tool_name: 'Edit', tool_input: { file_path: join(dir, 'src/a.ts') } });
    const result = spawnSync('sh', ['-c', command], {
      cwd: dir,
      input,
      env: testEnv({ CLAUDE_PROJECT_DIR: dir, PATH: process.env.PATH ?? '' }),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status, result.stderr).toBe(0);
    expect(runCli(dir, ['intent', 'list']).stdout).toContain('src/a.ts');
  });
});
