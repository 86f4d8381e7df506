import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitAll, gitIn, initRepo, pathWithCli, removeDir, runCli, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * eslint uses yorkie (a husky 2 fork): it writes every hook of the shared .git/hooks as a script
 * that runs `node "./node_modules/yorkie/src/runner.js" <hook>`, and our install chains it as
 * `<hook>.airspace-original`. In a linked worktree without node_modules that runner is missing:
 * the commit fails inside yorkie's hook before ours runs, while doctor said `ok`. The hook below
 * is yorkie 2.0.0's, as its installer writes it (nvm lines left out); its pre-push ends at once,
 * as yorkie's does, when package.json names no pre-push command.
 */
const yorkieHook = (hook: string) => `#!/bin/sh
#yorkie 2.0.0

command_exists () {
  command -v "$1" >/dev/null 2>&1
}

has_hook_script () {
  [ -f package.json ] && cat package.json | grep -q "\\"$1\\"[[:space:]]*:"
}

cd "."

# Check if ${hook} is defined, skip if not
has_hook_script ${hook} || exit 0

# Add common path where Node can be found
# Brew standard installation path /usr/local/bin
# Node standard installation path /usr/local
export PATH="$PATH:/usr/local/bin:/usr/local"

# Export Git hook params
export GIT_PARAMS="$*"

# Run hook
node "./node_modules/yorkie/src/runner.js" ${hook} || {
  echo
  echo "${hook} hook failed (add --no-verify to bypass)"
  exit 1
}
`;
/** Enough of yorkie's runner: runs package.json's gitHooks command for the hook. */
const RUNNER = `const { execSync } = require('child_process');
const hooks = require(require('path').join(process.cwd(), 'package.json')).gitHooks || {};
const command = hooks[process.argv[2]];
if (command) execSync(command, { stdio: 'inherit' });
`;

const PATH = pathWithCli();
const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

describe('a chained yorkie hook in a linked worktree without node_modules', () => {
  it('doctor says FAIL for the commit (not for the push yorkie skips), and its fix line makes the commit run our check', () => {
    const repo = initRepo({
      'package.json': `${JSON.stringify({ name: 'p', version: '1.0.0', gitHooks: { 'pre-commit': 'true' } })}\n`,
      '.gitignore': 'node_modules\n',
    });
    roots.push(repo);
    writeFiles(repo, { 'node_modules/yorkie/src/runner.js': RUNNER });
    for (const hook of ['pre-commit', 'pre-push']) {
      writeFileSync(join(repo, '.git', 'hooks', hook), yorkieHook(hook));
      chmodSync(join(repo, '.git', 'hooks', hook), 0o755);
    }
    expect(runCli(repo, ['install'], { PATH }).status).toBe(0);
    const worktree = `${repo}-agent`;
    roots.push(worktree);
    gitIn(repo, 'worktree', 'add', '-q', '-b', 'agent', worktree);

    // The reproduction: the commit fails in yorkie's hook.
    writeFiles(worktree, { 'a.txt': 'a\n' });
    gitIn(worktree, 'add', 'a.txt');
    const commit = () => spawnSync('git', ['commit', '-q', '-m', 'a'], { cwd: worktree, env: testEnv({ PATH }), encoding: 'utf8' });
    const failed = commit();
    expect(failed.status).toBe(1);
    expect(failed.stdout + failed.stderr).toContain('pre-commit hook failed');

    const doctor = runCli(worktree, ['doctor'], { PATH });
    expect(doctor.status).toBe(2);
    const lines = doctor.stdout.split('\n');
    const fail = lines.findIndex((line) => line.includes('pre-commit.airspace-original runs before airspace-hooks on pre-commit'));
    expect(fail, doctor.stdout).toBeGreaterThanOrEqual(0);
    expect(lines[fail]).toMatch(/^✗ worktrees: /);
    expect(lines[fail]).toContain(worktree);
    expect(doctor.stdout).not.toContain('on pre-push');
    const fix = /^\s+fix: (.*)$/.exec(lines[fail + 1] ?? '')?.[1];
    expect(fix).toBe(`cd ${worktree} && npm install`);

    // What `npm install` gives the worktree here: its own node_modules with yorkie's runner (a
    // real `npm install` of yorkie 2.0.0 was checked by hand; the registry is not a test's).
    mkdirSync(join(worktree, 'node_modules', 'yorkie', 'src'), { recursive: true });
    writeFileSync(join(worktree, 'node_modules', 'yorkie', 'src', 'runner.js'), RUNNER);
    const committed = commit();
    expect(committed.status, committed.stderr).toBe(0);
    expect(committed.stderr).toContain('airspace:');
    expect(runCli(worktree, ['doctor'], { PATH }).stdout).not.toContain('runs before airspace-hooks');

    // The main worktree has its node_modules: nothing to say there.
    rmSync(join(worktree, 'node_modules'), { recursive: true });
    writeFiles(repo, { 'b.txt': 'b\n' });
    commitAll(repo, 'b');
    expect(runCli(repo, ['doctor'], { PATH }).stdout).not.toContain(`${repo} (main): `);
  });
});
