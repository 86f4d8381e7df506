import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitIn, removeDir } from '../helpers/temp-repo.js';
import { airspace, calls, clearCalls, commitFile, gitRun, installPackage, snapshotDir, userRepo, type InstalledPackage, type UserRepo } from './install-kit.js';

/**
 * A repository that already has its own pre-push hook (and a disabled, non-executable pre-commit).
 * Install must keep them: the user's pre-push still runs, first, with git's stdin and arguments,
 * and its exit code still decides; uninstall puts both back byte for byte.
 */
const USER_PRE_PUSH = `#!/bin/sh
# the user's own pre-push: logs its arguments and stdin, refuses when asked to
echo "args:$1 $2" >> "$USER_HOOK_LOG"
while read -r local_ref local_sha remote_ref remote_sha; do
  echo "ref:$local_ref $local_sha $remote_ref $remote_sha" >> "$USER_HOOK_LOG"
done
[ "\${USER_HOOK_REFUSE-}" = 1 ] && { echo "user hook says no" >&2; exit 3; }
exit 0
`;
const USER_PRE_COMMIT = '#!/bin/sh\n# disabled by the user (not executable): git does not run it\nexit 1\n';

let user: UserRepo;
let pkg: InstalledPackage;
let hooksDir: string;
let userLog: string;
let before: Record<string, string>;

beforeAll(() => {
  user = userRepo();
  pkg = installPackage(user.repo);
  hooksDir = join(user.repo, '.git', 'hooks');
  userLog = join(user.root, 'user-hook.log');
  writeFileSync(join(hooksDir, 'pre-push'), USER_PRE_PUSH);
  chmodSync(join(hooksDir, 'pre-push'), 0o755);
  writeFileSync(join(hooksDir, 'pre-commit'), USER_PRE_COMMIT);
  chmodSync(join(hooksDir, 'pre-commit'), 0o644);
  before = snapshotDir(hooksDir);
}, 240_000);

afterAll(() => removeDir(user.root));

describe('install over existing hooks', () => {
  it('moves each existing hook aside, same bytes and mode, and chains it', () => {
    const result = airspace(pkg, user.repo, ['install']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('your existing hook is kept as .git/hooks/pre-push.airspace-original');
    expect(readFileSync(join(hooksDir, 'pre-push.airspace-original'), 'utf8')).toBe(USER_PRE_PUSH);
    expect(statSync(join(hooksDir, 'pre-commit.airspace-original')).mode & 0o777).toBe(0o644);
    expect(readFileSync(join(hooksDir, 'pre-push'), 'utf8')).toContain('# airspace-hooks:fingerprint v=');
  });

  it('a second install changes nothing (the shim is not chained onto itself)', () => {
    const installed = snapshotDir(hooksDir);
    const result = airspace(pkg, user.repo, ['install']);
    expect(result.stdout).toContain('pre-push: already installed');
    expect(snapshotDir(hooksDir)).toEqual(installed);
  });

  it('a non-executable original stays disabled: the commit goes through', () => {
    const commit = commitFile(user.repo, 'src/app.js', 'export const app = 2;\n');
    expect(commit.status, commit.stderr).toBe(0);
  });

  it('push: the user hook runs first with the same arguments and stdin as our CLI, and the push lands', () => {
    clearCalls(pkg);
    const head = gitIn(user.repo, 'rev-parse', 'HEAD');
    const push = gitRun(user.repo, ['push', '-q', 'origin', 'main'], { USER_HOOK_LOG: userLog });
    expect(push.status, push.stderr).toBe(0);
    expect(gitIn(user.remote, 'rev-parse', 'main')).toBe(head);
    const userLines = readFileSync(userLog, 'utf8').trim().split('\n');
    expect(userLines[0]).toBe(`args:origin ${user.remote}`);
    expect(userLines[1]).toMatch(new RegExp(`^ref:refs/heads/main ${head} refs/heads/main [0-9a-f]{40}$`));
    const cliLines = calls(pkg);
    expect(cliLines[0]).toBe(`call:hook pre-push origin ${user.remote}`);
    expect(cliLines[1]).toBe(`stdin:${userLines[1]!.slice('ref:'.length)}`);
  });

  it("the user hook's exit code still counts: it blocks the push, and our CLI is not even asked", () => {
    clearCalls(pkg);
    gitIn(user.repo, 'commit', '-q', '--allow-empty', '--no-verify', '-m', 'another');
    const remoteBefore = gitIn(user.remote, 'rev-parse', 'main');
    const push = gitRun(user.repo, ['push', '-q', 'origin', 'main'], { USER_HOOK_LOG: userLog, USER_HOOK_REFUSE: '1' });
    expect(push.status).not.toBe(0);
    expect(push.stderr).toContain('user hook says no');
    expect(gitIn(user.remote, 'rev-parse', 'main')).toBe(remoteBefore);
    expect(calls(pkg)).toEqual([]);
  });

  it('with AIRSPACE_HOOKS=0 the user hook still runs (it is not ours to disable)', () => {
    writeFileSync(userLog, '');
    const push = gitRun(user.repo, ['push', '-q', 'origin', 'main'], { USER_HOOK_LOG: userLog, AIRSPACE_HOOKS: '0' });
    expect(push.status, push.stderr).toBe(0);
    expect(readFileSync(userLog, 'utf8')).toContain('args:origin');
  });

  it('uninstall puts the original hooks back: .git/hooks byte-identical to before', () => {
    const result = airspace(pkg, user.repo, ['uninstall']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('your original hook is back');
    expect(snapshotDir(hooksDir)).toEqual(before);
  });
});
