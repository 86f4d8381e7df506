import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { managerSnippet } from '../../../src/install/manager-snippets.js';
import { detectPackageManager } from '../../../src/install/package-manager.js';
import type { InstallResult } from '../../../src/install/types.js';
import { findingLines, installResultLines, snippetLines } from '../../../src/messages/setup.js';
import { removeDir, tempDir } from '../../helpers/temp-repo.js';

/**
 * In a pnpm or yarn project npm refuses `npx` and `npm i` (EBADDEVENGINES when package.json
 * declares devEngines.packageManager): every command we print or write must be the project's own.
 */
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function project(files: Record<string, string>): string {
  const dir = tempDir('airspace-pm-');
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('detectPackageManager', () => {
  it('reads devEngines first, then packageManager, then the lockfile; npm by default', () => {
    expect(
      detectPackageManager(
        project({ 'package.json': JSON.stringify({ devEngines: { packageManager: { name: 'pnpm', onFail: 'error' } } }), 'package-lock.json': '{}' }),
      ),
    ).toEqual({ name: 'pnpm', source: 'devEngines' });
    expect(detectPackageManager(project({ 'package.json': JSON.stringify({ devEngines: { packageManager: [{ name: 'yarn' }, { name: 'npm' }] } }) }))).toEqual({
      name: 'yarn',
      source: 'devEngines',
    });
    expect(detectPackageManager(project({ 'package.json': JSON.stringify({ packageManager: 'yarn@4.5.0+sha512.abc' }), 'pnpm-lock.yaml': '' }))).toEqual({
      name: 'yarn',
      source: 'packageManager',
    });
    expect(detectPackageManager(project({ 'package.json': '{}', 'pnpm-lock.yaml': 'lockfileVersion: 9\n' }))).toEqual({
      name: 'pnpm',
      source: 'pnpm-lock.yaml',
    });
    expect(detectPackageManager(project({ 'package.json': '{}', 'yarn.lock': '' }))).toEqual({ name: 'yarn', source: 'yarn.lock' });
    expect(detectPackageManager(project({ 'package.json': '{}', 'bun.lock': '' }))).toEqual({ name: 'bun', source: 'bun.lock' });
    expect(detectPackageManager(project({ 'package.json': '{ broken' }))).toEqual({ name: 'npm', source: 'default' });
    expect(detectPackageManager(project({ 'package.json': JSON.stringify({ packageManager: 'deno@2' }) }))).toEqual({ name: 'npm', source: 'default' });
  });
});

const MAIN = '"$(git rev-parse --path-format=absolute --git-common-dir)"/../node_modules/.bin/airspace-hooks';

describe('commands in a pnpm or yarn project', () => {
  it('hook manager snippets run the main worktree’s bin (every worktree has it, npx in a linked one asks the registry); apply commands use the project manager', () => {
    const dir = project({ 'lefthook.yml': '' });
    const pnpm = managerSnippet('lefthook', join(dir, 'lefthook.yml'), 'pnpm');
    expect(pnpm.snippet).toContain(`run: '${MAIN} hook pre-push {1} {2}'`);
    expect(pnpm.applyCommand).toBe('pnpm exec lefthook install');
    expect(pnpm.snippet).not.toContain('npx');
    const yarn = managerSnippet('simple-git-hooks', join(dir, 'lefthook.yml'), 'yarn');
    expect(yarn.snippet).toContain('"pre-commit": "yarn run airspace-hooks hook pre-commit"');
    expect(managerSnippet('lefthook', join(dir, 'lefthook.yml')).snippet).not.toContain('npx');
    expect(managerSnippet('pre-commit', join(dir, '.pre-commit-config.yaml')).snippet).toContain(`entry: sh -c '${MAIN} hook pre-commit'`);
  });

  it('an existing simple-git-hooks object is merged, never replaced: their hooks kept, ours after them (vue core)', () => {
    const pkg = { name: 'x', 'simple-git-hooks': { 'pre-commit': 'pnpm lint-staged && pnpm check', 'commit-msg': 'node scripts/verify-commit.js' } };
    const dir = project({ 'package.json': JSON.stringify(pkg, null, 2) });
    const merged = managerSnippet('simple-git-hooks', join(dir, 'package.json'), 'pnpm');
    expect(merged.replaces).toBe('"simple-git-hooks"');
    expect(JSON.parse(merged.snippet.slice('"simple-git-hooks": '.length))).toEqual({
      'pre-commit': `pnpm lint-staged && pnpm check && ${MAIN} hook pre-commit`,
      'commit-msg': 'node scripts/verify-commit.js',
      'pre-push': `${MAIN} hook pre-push "$1" "$2"`,
    });
    expect(snippetLines(merged).join('\n')).toContain('Replace the "simple-git-hooks" entry of');
  });

  it('an existing lefthook pre-commit key is added to, never doubled (a second key of one name replaces the first)', () => {
    const dir = project({ 'lefthook.yml': 'pre-commit:\n  commands:\n    lint:\n      run: pnpm lint\n' });
    const text = managerSnippet('lefthook', join(dir, 'lefthook.yml'), 'pnpm').snippet;
    expect(text.split('\n').filter((line) => line === 'pre-commit:')).toEqual([]);
    expect(text).toContain('# under your existing pre-commit: → commands:');
    expect(text).toContain(`pre-push:\n  commands:\n    airspace-hooks:\n      run: '${MAIN} hook pre-push {1} {2}'`);
  });

  it('install and doctor lines name the project manager commands', () => {
    const result: InstallResult = {
      outcome: 'refused-hooks-path',
      ok: false,
      version: '0.1.0',
      strategy: 'none',
      hooksDir: '/repo/.githooks',
      hooksPath: '.githooks',
      hooks: [],
      manager: null,
      huskyInactive: false,
      huskyRuntimeMissing: false,
      huskyFix: null,
      forced: false,
      packageManager: { name: 'pnpm', source: 'pnpm-lock.yaml' },
    };
    const text = installResultLines(result).join('\n');
    expect(text).toContain('`pnpm exec airspace-hooks install --worktree`');
    expect(text).not.toContain('npx');
    const installed = installResultLines({
      ...result,
      outcome: 'installed',
      ok: true,
      strategy: 'hooks-dir',
      packageManager: { name: 'yarn', source: 'yarn.lock' },
    }).join('\n');
    expect(installed).toContain('yarn project (from yarn.lock): run airspace-hooks as `yarn airspace-hooks …`');
    const doctor = findingLines(
      [
        { level: 'warn', code: 'not-installed', path: '/repo' },
        { level: 'error', code: 'cli-missing', path: '/repo' },
      ],
      undefined,
      'pnpm',
    ).join('\n');
    expect(doctor).toContain('run: pnpm exec airspace-hooks install');
    expect(doctor).toContain('run pnpm install (or pnpm add -D airspace-hooks)');
    expect(doctor).not.toMatch(/npx|\bnpm /);
  });
});
