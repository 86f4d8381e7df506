import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { gitIn, initRepo, PROJECT_ROOT, removeDir, runCli, testEnv } from '../helpers/temp-repo.js';

/**
 * `install --cursor|--gemini|--codex` / `uninstall` on each harness's settings file: created when
 * absent, merged with what is there (the user's keys and hooks kept), idempotent, refused in one
 * line when malformed, restored byte for byte — and the command it writes runs as the harness runs it.
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

type Settings = { [key: string]: unknown; hooks?: Record<string, unknown[]> };
/** Our commands among a flat list of `{command}` entries (Cursor) or of `{matcher, hooks: [{command}]}` groups. */
const flatCommands = (entries: unknown[] | undefined, script: string) =>
  ((entries ?? []) as { command: string }[]).map((entry) => entry.command).filter((command) => command.includes(script));
const groupedCommands = (entries: unknown[] | undefined, script: string) =>
  ((entries ?? []) as { hooks: { command: string }[] }[])
    .flatMap((group) => group.hooks.map((hook) => hook.command))
    .filter((command) => command.includes(script));

interface Case {
  readonly flag: 'cursor' | 'gemini' | 'codex';
  readonly label: string;
  readonly file: readonly string[];
  readonly event: string;
  /** A settings file a user of this harness may have: other keys, a hook of their own, tabs, no final newline. */
  readonly users: string;
  /** The command of each entry of ours in `settings`. */
  readonly ourCommands: (settings: Settings) => string[];
  /** The harness runs the command: its shell, cwd and environment, with an edit of `file` on stdin. */
  readonly run: (command: string, project: string, file: string) => ReturnType<typeof spawnSync>;
}

const sh = (command: string, cwd: string, input: string, env: Record<string, string> = {}) =>
  spawnSync('sh', ['-c', command], { cwd, input, env: testEnv(env), encoding: 'utf8', timeout: 60_000 });

const CASES: Case[] = [
  {
    flag: 'cursor',
    label: 'Cursor',
    file: ['.cursor', 'hooks.json'],
    event: 'preToolUse',
    users:
      '{\n\t"version": 1,\n\t"hooks": {"preToolUse": [{"command": ".cursor/hooks/mine.sh", "matcher": "Shell"}], "afterFileEdit": [{"command": "fmt"}]}\n}',
    ourCommands: (settings) => flatCommands(settings.hooks?.preToolUse, 'examples/cursor/'),
    // Project hooks run from the project root.
    run: (command, project, file) =>
      sh(
        command,
        project,
        JSON.stringify({
          hook_event_name: 'preToolUse',
          workspace_roots: [project],
          cwd: project,
          tool_name: 'Write',
          tool_input: { file_path: join(project, file) },
        }),
      ),
  },
  {
    flag: 'gemini',
    label: 'Gemini CLI',
    file: ['.gemini', 'settings.json'],
    event: 'BeforeTool',
    users:
      '{\n\t"theme": "GitHub",\n\t"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "./guard.sh"}]}], "disabled": ["x"]}\n}',
    ourCommands: (settings) => groupedCommands(settings.hooks?.BeforeTool, 'examples/gemini/'),
    run: (command, project, file) =>
      sh(
        command,
        project,
        JSON.stringify({
          hook_event_name: 'BeforeTool',
          cwd: project,
          tool_name: 'write_file',
          tool_input: { file_path: join(project, file), content: 'x\n' },
        }),
        { GEMINI_PROJECT_DIR: project },
      ),
  },
  {
    flag: 'codex',
    label: 'Codex',
    file: ['.codex', 'hooks.json'],
    event: 'PreToolUse',
    users: '{\n\t"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 guard.py"}]}], "Stop": []}\n}',
    ourCommands: (settings) => groupedCommands(settings.hooks?.PreToolUse, 'examples/codex/'),
    // Codex runs the command in the session's folder: a subfolder here, the patch relative to it.
    run: (command, project, file) => {
      const cwd = join(project, 'src');
      const patch = `*** Begin Patch\n*** Update File: ${file.replace(/^src\//, '')}\n@@\n-a\n+b\n*** End Patch\n`;
      return sh(command, cwd, JSON.stringify({ hook_event_name: 'PreToolUse', cwd, tool_name: 'apply_patch', tool_input: { command: patch } }));
    },
  },
];

describe.each(CASES)('install --$flag', (harness) => {
  const settingsOf = (dir: string) => join(dir, ...harness.file);
  const read = (dir: string): Settings => JSON.parse(readFileSync(settingsOf(dir), 'utf8'));

  it('creates the file with our hook, a second run changes nothing, the command runs as the harness runs it, uninstall removes what it created', () => {
    const dir = repo();
    const first = runCli(dir, ['install', `--${harness.flag}`]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain(`${harness.label}: created`);
    const written = readFileSync(settingsOf(dir));
    const commands = harness.ourCommands(read(dir));
    expect(commands).toHaveLength(1);
    if (harness.flag === 'cursor') expect(read(dir).version).toBe(1);

    const second = runCli(dir, ['install', `--${harness.flag}`]);
    expect(second.stdout).toContain(`${harness.label}: already installed`);
    expect(readFileSync(settingsOf(dir)).equals(written)).toBe(true);

    const ran = harness.run(commands[0]!, dir, 'src/a.ts');
    expect(ran.status, `${ran.stderr}`).toBe(0);
    expect(runCli(dir, ['intent', 'list']).stdout).toContain('src/a.ts');

    const removed = runCli(dir, ['uninstall']);
    expect(removed.stdout).toContain(`${harness.label}: removed`);
    expect(existsSync(join(dir, harness.file[0]!))).toBe(false);
  });

  it("merges into the user's file, keeping every key and hook, and uninstall restores the bytes exactly", () => {
    const dir = repo();
    mkdirSync(join(dir, harness.file[0]!));
    writeFileSync(settingsOf(dir), harness.users);
    const installed = runCli(dir, ['install', `--${harness.flag}`]);
    expect(installed.stdout).toContain(`${harness.label}: added the ${harness.event} hook to`);
    const merged = read(dir);
    const theirs = JSON.parse(harness.users);
    for (const key of Object.keys(theirs)) if (key !== 'hooks') expect(merged[key]).toEqual(theirs[key]);
    for (const [event, entries] of Object.entries(theirs.hooks as Record<string, unknown[]>)) {
      expect(merged.hooks?.[event]?.slice(0, entries.length)).toEqual(entries);
    }
    expect(harness.ourCommands(merged)).toHaveLength(1);

    expect(runCli(dir, ['uninstall']).stdout).toContain('restored');
    expect(readFileSync(settingsOf(dir), 'utf8')).toBe(harness.users);
  });

  it('after a user edit, uninstall takes out only our entry and keeps the edit', () => {
    const dir = repo();
    runCli(dir, ['install', `--${harness.flag}`]);
    const edited = read(dir);
    edited.mine = true;
    writeFileSync(settingsOf(dir), JSON.stringify(edited));
    expect(runCli(dir, ['uninstall']).stdout).toContain('was edited since install');
    const left = read(dir);
    expect(left.mine).toBe(true);
    expect(harness.ourCommands(left)).toEqual([]);
  });

  it('refuses a file that is not JSON, or whose hook list is not a list, in one line, and leaves it untouched', () => {
    const dir = repo();
    mkdirSync(join(dir, harness.file[0]!));
    for (const bad of ['{ not json', JSON.stringify({ hooks: { [harness.event]: 'nope' } })]) {
      writeFileSync(settingsOf(dir), bad);
      const result = runCli(dir, ['install', `--${harness.flag}`]);
      expect(result.status).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain(harness.file.join('/'));
      expect(readFileSync(settingsOf(dir), 'utf8')).toBe(bad);
    }
  });
});

describe('install --claude-code --cursor --gemini --codex in one repository', () => {
  it('installs all four, and one uninstall leaves every file as it was before', () => {
    const dir = repo();
    mkdirSync(join(dir, '.gemini'));
    const gemini = '{"theme": "GitHub"}';
    writeFileSync(join(dir, '.gemini', 'settings.json'), gemini);
    const installed = runCli(dir, ['install', '--claude-code', '--cursor', '--gemini', '--codex']);
    expect(installed.status, installed.stderr).toBe(0);
    for (const label of ['Claude Code', 'Cursor', 'Gemini CLI', 'Codex']) expect(installed.stdout).toContain(`${label}: `);
    runCli(dir, ['uninstall']);
    for (const folder of ['.claude', '.cursor', '.codex']) expect(existsSync(join(dir, folder))).toBe(false);
    expect(readFileSync(join(dir, '.gemini', 'settings.json'), 'utf8')).toBe(gemini);
  });
});

describe('the installed commands in a linked worktree without node_modules', () => {
  // The package as npm puts it in the main worktree (its dependencies linked from ours): the
  // command then finds the script from the harness's project folder, else next to the common git dir.
  const main = initRepo({ 'src/a.ts': 'export const a = 1;\n', '.gitignore': 'node_modules\n' });
  const worktree = `${main}-agent`;
  afterAll(() => {
    removeDir(main);
    removeDir(worktree);
  });

  it('each harness runs its command in the linked worktree and the edit is checked there', () => {
    const root = join(main, 'node_modules', 'airspace-hooks');
    mkdirSync(root, { recursive: true });
    for (const part of ['package.json', 'bin', 'dist', 'hooks', 'examples']) cpSync(join(PROJECT_ROOT, part), join(root, part), { recursive: true });
    symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(root, 'node_modules'));
    const bin = join(root, 'bin', 'airspace-hooks.js');
    gitIn(main, 'worktree', 'add', '-q', '-b', 'agent/work', worktree);
    const installed = spawnSync(process.execPath, [bin, 'install', '--cursor', '--gemini', '--codex'], { cwd: main, env: testEnv(), encoding: 'utf8' });
    expect(installed.status, installed.stderr).toBe(0);

    for (const harness of CASES) {
      const settings = JSON.parse(readFileSync(join(worktree, ...harness.file), 'utf8'));
      const [command] = harness.ourCommands(settings);
      expect(command).toContain('node_modules/airspace-hooks/');
      const ran = harness.run(command!, worktree, 'src/a.ts');
      expect(ran.status, `${harness.flag}: ${ran.stderr}`).toBe(0);
    }
    const listed = spawnSync(process.execPath, [bin, 'intent', 'list'], { cwd: worktree, env: testEnv(), encoding: 'utf8' });
    expect(listed.stdout).toContain('src/a.ts');
  });
});
