import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectInstallation, install } from '../../src/install/index.js';
import { findingLines, installResultLines } from '../../src/messages/setup.js';
import { gitIn, initRepo, PROJECT_ROOT, removeDir, tempDir, testEnv } from '../helpers/temp-repo.js';

/**
 * husky as users meet it: real husky 9 (our devDependency) in a repository and in a fresh linked
 * worktree, and the husky ≤ 8 layout (core.hooksPath = .husky, `.husky/_/husky.sh`).
 */
const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

function repo(files: Record<string, string>): string {
  const dir = initRepo(files);
  roots.push(dir);
  return dir;
}

function husky9(dir: string): void {
  const result = spawnSync(process.execPath, [join(PROJECT_ROOT, 'node_modules', 'husky', 'bin.js')], { cwd: dir, env: testEnv(), encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
}

/** A stand-in CLI in the main worktree's node_modules/.bin that records it was called. */
function recorderCli(dir: string): string {
  const log = join(dir, '..', `${Math.random().toString(36).slice(2)}-calls.log`);
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  const bin = join(dir, 'node_modules', '.bin', 'airspace-hooks');
  writeFileSync(bin, `#!/bin/sh\nprintf 'call:%s\\n' "$*" >> '${log}'\n`);
  chmodSync(bin, 0o755);
  return log;
}

const PATH_WITHOUT_CLI = (process.env.PATH ?? '')
  .split(':')
  .filter((d) => !d.includes('node_modules'))
  .join(':');

describe('husky 9 in a fresh linked worktree', () => {
  let main: string;
  let log: string;
  let worktree: string;
  beforeAll(() => {
    main = repo({ 'package.json': JSON.stringify({ name: 'p', private: true, devDependencies: { husky: '9.1.7' } }), '.gitignore': 'node_modules/\n' });
    husky9(main);
    log = recorderCli(main);
    worktree = join(tempDir(), 'wt');
    roots.push(join(worktree, '..'));
  });

  it('install in the main worktree, then a linked worktree: install and doctor say no hook runs there, with the exact fix', async () => {
    const first = await install(main, { ci: false });
    expect(first.strategy).toBe('husky');
    expect(first.huskyRuntimeMissing).toBe(false);
    gitIn(main, 'add', '-A');
    gitIn(main, 'commit', '-q', '--no-verify', '-m', 'hooks');
    gitIn(main, 'worktree', 'add', '-q', '-b', 'fresh', worktree);
    const again = await install(worktree, { ci: false });
    expect(again.huskyRuntimeMissing).toBe(true);
    expect(installResultLines(again, worktree).join('\n')).toContain(
      "husky's generated .husky/_ is missing in this worktree (it is gitignored), so git runs NO hook here yet: run `npx husky`",
    );
    const findings = findingLines(await inspectInstallation(worktree, testEnv()), worktree).join('\n');
    expect(findings).toMatch(/FAIL husky's generated \.husky\/_ is missing in this worktree .* run npx husky \(or npm install\) in this worktree/);
  });

  it("the husky block finds the main worktree's CLI where the worktree has no node_modules", () => {
    const result = spawnSync('sh', [join(worktree, '.husky', 'pre-commit')], { cwd: worktree, env: testEnv({ PATH: PATH_WITHOUT_CLI }), encoding: 'utf8' });
    expect(result.stderr).not.toContain('not installed here');
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(log, 'utf8')).toContain('call:hook pre-commit');
  });
});

describe('husky ≤ 8 (core.hooksPath = .husky)', () => {
  let dir: string;
  beforeAll(() => {
    dir = repo({
      'package.json': JSON.stringify({ name: 'p', private: true, devDependencies: { husky: '^8.0.3' } }),
      '.husky/_/husky.sh': '#!/usr/bin/env sh\n',
      '.husky/pre-commit': '#!/usr/bin/env sh\n. "$(dirname -- "$0")/_/husky.sh"\n\nnpm test\n',
    });
  });

  it('doctor does not call untouched scripts "edited after install"; --force rewrites an edited block', async () => {
    gitIn(dir, 'config', 'core.hooksPath', '.husky');
    const result = await install(dir, { ci: false });
    expect(result.strategy).toBe('husky');
    const findings = await inspectInstallation(dir, testEnv());
    expect(findings.map((f) => f.code)).not.toContain('shim-modified');
    expect(findings.filter((f) => f.code === 'husky-block-installed')).toHaveLength(2);
    const script = join(dir, '.husky', 'pre-commit');
    writeFileSync(script, readFileSync(script, 'utf8').replace('|| exit $?', '|| true'));
    expect((await inspectInstallation(dir, testEnv())).map((f) => f.code)).toContain('husky-block-modified');
    expect((await install(dir, { ci: false })).hooks[0]?.kind).toBe('modified-kept');
    expect((await install(dir, { ci: false, force: true })).hooks[0]?.kind).toBe('modified-replaced');
    expect(readFileSync(script, 'utf8')).toContain('|| exit $?');
    expect((await inspectInstallation(dir, testEnv())).filter((f) => f.level !== 'ok').map((f) => f.code)).toEqual(
      expect.not.arrayContaining(['husky-block-modified', 'shim-modified']),
    );
  });

  it('not active yet: the advice is `npx husky install` for husky 8, `npx husky` for husky 9', async () => {
    gitIn(dir, 'config', '--unset', 'core.hooksPath');
    const eight = await install(dir, { ci: false });
    expect(eight.huskyInactive).toBe(true);
    expect(installResultLines(eight).join('\n')).toContain('run `npx husky install`');
    expect(findingLines(await inspectInstallation(dir, testEnv())).join('\n')).toContain('core.hooksPath unset); run: npx husky install');
    const nine = repo({
      'package.json': JSON.stringify({ name: 'p', private: true, devDependencies: { husky: '^9.1.0' } }),
      '.husky/pre-commit': 'npm test\n',
    });
    const result = await install(nine, { ci: false });
    expect(installResultLines(result).join('\n')).toContain('run `npx husky` (or');
  });
});
