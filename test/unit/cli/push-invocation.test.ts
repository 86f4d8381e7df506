import { describe, expect, it } from 'vitest';
import { dryRunOfPushArgs, pushIsDryRun } from '../../../src/cli/push-invocation.js';

describe('dryRunOfPushArgs', () => {
  it('reads --dry-run and -n however git accepts them', () => {
    expect(dryRunOfPushArgs(['git', 'push', '--dry-run', 'origin', 'main'])).toBe(true);
    expect(dryRunOfPushArgs(['git', 'push', 'origin', 'main', '-n'])).toBe(true);
    expect(dryRunOfPushArgs(['git', 'push', '-nv', 'origin'])).toBe(true);
    expect(dryRunOfPushArgs(['git', 'push', '--dry', 'origin'])).toBe(true);
    expect(dryRunOfPushArgs(['/usr/bin/git', '-C', 'repo', '-c', 'push.default=current', 'push', '-n'])).toBe(true);
  });

  it('is false for a real push, and the last of --dry-run and --no-dry-run wins', () => {
    expect(dryRunOfPushArgs(['git', 'push', '-u', 'origin', 'HEAD'])).toBe(false);
    expect(dryRunOfPushArgs(['git', 'push', '--dry-run', '--no-dry-run', 'origin'])).toBe(false);
    expect(dryRunOfPushArgs(['git', 'push', '--no-dry-run', '-n', 'origin'])).toBe(true);
  });

  it('never reads a value, a refspec after -- or a push option as the flag', () => {
    expect(dryRunOfPushArgs(['git', 'push', '-o', '-n', 'origin'])).toBe(false);
    expect(dryRunOfPushArgs(['git', 'push', '-on', 'origin'])).toBe(false);
    expect(dryRunOfPushArgs(['git', 'push', '--push-option', '-n', 'origin'])).toBe(false);
    expect(dryRunOfPushArgs(['git', 'push', '--repo=-n', 'main'])).toBe(false);
    expect(dryRunOfPushArgs(['git', 'push', 'origin', '--', '-n'])).toBe(false);
    expect(dryRunOfPushArgs(['git', 'push', '--delete', 'origin', 'x'])).toBe(false);
  });

  it('is null for what is not a git push', () => {
    expect(dryRunOfPushArgs(['node', 'push', '-n'])).toBeNull();
    expect(dryRunOfPushArgs(['git', 'fetch', '-n'])).toBeNull();
    expect(dryRunOfPushArgs(['git', '-C', 'push', 'status'])).toBeNull();
    expect(dryRunOfPushArgs([])).toBeNull();
  });
});

describe('pushIsDryRun', () => {
  // A process tree as /proc shows it: pid → [cmdline, parent].
  const tree = (procs: Record<number, [string[], number]>) => (path: string) => {
    const [, pid, file] = /^\/proc\/(\d+)\/(cmdline|stat)$/.exec(path) ?? [];
    const proc = procs[Number(pid)];
    if (!proc) return null;
    return file === 'cmdline' ? `${proc[0].join('\0')}\0` : `${pid} (sh (odd) name) S ${proc[1]} 1 1 0`;
  };

  it('finds the git push above husky and npx shells', () => {
    const read = tree({
      90: [['sh', '-e', '.husky/pre-push', 'origin'], 80],
      80: [['node', '/usr/bin/npx', 'airspace-hooks'], 70],
      70: [['sh', '.husky/_/pre-push', 'origin', 'url'], 60],
      60: [['git', 'push', '--dry-run', 'origin', 'main'], 1],
    });
    expect(pushIsDryRun(90, read)).toBe(true);
  });

  it('is false for a real push, when /proc cannot be read, and when no git push is found', () => {
    expect(pushIsDryRun(90, tree({ 90: [['sh', 'pre-push'], 60], 60: [['git', 'push', 'origin'], 1] }))).toBe(false);
    expect(pushIsDryRun(90, () => null)).toBe(false);
    expect(pushIsDryRun(90, tree({ 90: [['sh', 'pre-push'], 1] }))).toBe(false);
  });
});
