import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initRepo, removeDir, runCli, tempDir } from '../helpers/temp-repo.js';

/**
 * What a user types wrong, or asks plainly, through the real CLI: one clear line and exit 2 for a
 * mistake, never "internal error" or a stack trace.
 */
let repo: string;
let outside: string;

beforeAll(() => {
  repo = initRepo({ 'README.md': '# x\n', 'package.json': JSON.stringify({ name: 'host-project', version: '1.0.0' }) });
  outside = tempDir();
});

afterAll(() => {
  removeDir(repo);
  removeDir(outside);
});

/** Exit 2 and exactly one line on stderr, ours, with no git "fatal", errno code or stack. */
function oneLineError(result: { status: number | null; stderr: string; stdout: string }): string {
  expect(result.status).toBe(2);
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^airspace-hooks: /);
  expect(result.stderr).not.toMatch(/internal error|fatal:|ENOENT|\n\s+at /);
  return lines[0]!;
}

describe('scan --agent', () => {
  it('the same NAME given twice is a usage error: exit 2, one line, no internal error', () => {
    const result = runCli(repo, ['scan', '--agent', 'x=HEAD', '--agent', 'x=main']);
    expect(result.status).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('--agent x is given twice');
    expect(result.stderr).not.toMatch(/internal error|same-agent-pair|\n\s+at /);
  });
});

describe('check --strict', () => {
  it('is refused in one line that says why: check fails on any error already, --strict belongs to the hooks', () => {
    const line = oneLineError(runCli(repo, ['check', '--strict']));
    expect(line).toContain('check has no --strict');
    expect(line).toContain('failClosed');
  });
});

describe('intent add', () => {
  it('a path outside the worktree is named as such, not "(dot-segment)"', () => {
    const line = oneLineError(runCli(repo, ['intent', 'add', '/etc/passwd']));
    expect(line).toContain('/etc/passwd is outside this worktree');
    expect(line).not.toContain('dot-segment');
  });

  it('700 paths are refused with the limit, and nothing is added', () => {
    const paths = Array.from({ length: 700 }, (_, i) => `src/f${i}.ts`);
    const line = oneLineError(runCli(repo, ['intent', 'add', ...paths]));
    expect(line).toContain('at most 500 files; 0 declared + 700 new would be 700');
    expect(runCli(repo, ['intent', 'list']).stdout).toContain('no declared intent');
    const ok = runCli(repo, ['intent', 'add', ...paths.slice(0, 500)]);
    expect(ok.status, ok.stderr).toBe(0);
    oneLineError(runCli(repo, ['intent', 'add', 'src/one-more.ts']));
    expect(runCli(repo, ['intent', 'clear']).status).toBe(0);
  });
});

describe('radar --out', () => {
  it('a folder that does not exist is one clear line, before any scan', () => {
    const line = oneLineError(runCli(repo, ['radar', '--out', 'missing/radar.html']));
    expect(line).toContain('the folder');
    expect(line).toContain('does not exist');
    expect(existsSync(join(repo, 'missing'))).toBe(false);
  });
});

describe('install outside a repository', () => {
  it("says so in one line of ours, not git's raw fatal", () => {
    const line = oneLineError(runCli(outside, ['install']));
    expect(line).toContain('not a git repository');
  });
});
