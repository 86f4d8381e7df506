import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitIn, initRepo, PROJECT_ROOT, removeDir, tempDir, testEnv } from '../helpers/temp-repo.js';

/**
 * `doctor` on the agent harnesses' edit hooks (src/install/harness-settings.ts), in a linked
 * worktree as an agent has it: no node_modules of its own (the package is in the main worktree's),
 * no airspace-hooks on PATH. Each installed hook is named; a hook install recorded but no longer in
 * the settings file is a warning whose fix line, run as printed from that worktree, puts it back.
 */
const root = tempDir('airspace-doctor-harness-');
afterAll(() => removeDir(root));
const PATH_WITHOUT_CLI = (process.env.PATH ?? '')
  .split(':')
  .filter((dir) => !dir.includes('node_modules') && !dir.includes('airspace-test-bin'))
  .join(':');
const env = testEnv({ PATH: PATH_WITHOUT_CLI });

/** The package as npm puts it in the main worktree: node_modules/airspace-hooks and its .bin link. */
function installPackage(project: string): string {
  const pkg = join(project, 'node_modules', 'airspace-hooks');
  mkdirSync(pkg, { recursive: true });
  for (const part of ['package.json', 'bin', 'dist', 'hooks', 'examples']) cpSync(join(PROJECT_ROOT, part), join(pkg, part), { recursive: true });
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(pkg, 'node_modules'));
  mkdirSync(join(project, 'node_modules', '.bin'));
  const bin = join(project, 'node_modules', '.bin', 'airspace-hooks');
  symlinkSync(join('..', 'airspace-hooks', 'bin', 'airspace-hooks.js'), bin);
  return bin;
}

interface Finding {
  level: string;
  topic: string;
  text: string;
  fix?: string;
}
const harnessFindings = (cwd: string, bin: string): Finding[] => {
  const result = spawnSync(bin, ['doctor', '--json'], { cwd, env, encoding: 'utf8', timeout: 60_000 });
  expect(result.stdout, result.stderr).not.toBe('');
  return (JSON.parse(result.stdout) as { findings: Finding[] }).findings.filter((f) => f.topic === 'agent hooks');
};

describe('doctor and the agent harness hooks', () => {
  it('names each installed hook, warns where install recorded one the settings file no longer has, and its fix works from that worktree', () => {
    const main = initRepo({ 'src/a.ts': 'export const a = 1;\n', '.gitignore': 'node_modules\n' }, join(root, 'main'));
    const bin = installPackage(main);
    const agent = join(root, 'agent');
    gitIn(main, 'worktree', 'add', '-q', '-b', 'agent/work', agent);

    const none = harnessFindings(agent, bin);
    expect(none).toHaveLength(1);
    expect(none[0]).toMatchObject({ level: 'ok' });
    expect(none[0]?.text).toContain(`${bin} install --claude-code`);

    for (const flag of ['--cursor', '--gemini', '--claude-code']) {
      const installed = spawnSync(bin, ['install', flag], { cwd: agent, env, encoding: 'utf8', timeout: 60_000 });
      expect(installed.status, installed.stderr).toBe(0);
    }
    expect(harnessFindings(agent, bin).map((f) => [f.level, f.text.split(':')[0]])).toEqual([
      ['ok', 'Claude Code'],
      ['ok', 'Cursor'],
      ['ok', 'Gemini CLI'],
    ]);

    // Someone takes our entry out of Cursor's file and deletes Gemini CLI's.
    writeFileSync(join(agent, '.cursor', 'hooks.json'), `${JSON.stringify({ version: 1, hooks: {} }, null, 2)}\n`);
    rmSync(join(agent, '.gemini'), { recursive: true });
    const broken = harnessFindings(agent, bin);
    expect(broken.map((f) => [f.level, f.text.split(':')[0]])).toEqual([
      ['ok', 'Claude Code'],
      ['warn', 'Cursor'],
      ['warn', 'Gemini CLI'],
    ]);
    const [, cursor, gemini] = broken;
    expect(cursor?.text).toContain('no longer has it');
    expect(gemini?.text).toContain('the file is gone');
    // No npx there (it would ask the registry): the main worktree's bin, by its path.
    expect(cursor?.fix).toBe(`${bin} install --cursor`);

    const subdir = join(agent, 'src');
    for (const finding of [cursor, gemini]) {
      const fixed = spawnSync('sh', ['-c', finding?.fix ?? 'false'], { cwd: subdir, env, encoding: 'utf8', timeout: 60_000 });
      expect(fixed.status, fixed.stderr).toBe(0);
    }
    expect(harnessFindings(agent, bin).map((f) => f.level)).toEqual(['ok', 'ok', 'ok']);
  });
});
