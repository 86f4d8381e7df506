import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitAll, gitIn, initEmptyRepo, initRepo, removeDir, tempDir, userStateFingerprint, writeFiles } from '../helpers/temp-repo.js';

/**
 * The shared fixture helpers (test/helpers/temp-repo.ts) make what git makes, with fewer git
 * processes: each spawn from a test worker costs ~20 ms of CPU and every integration file pays it.
 */
const dirs: string[] = [];
afterAll(() => dirs.splice(0).forEach(removeDir));
const scratch = (): string => {
  const dir = tempDir();
  dirs.push(dir);
  return dir;
};

/** Runs `body` with a `git` first on PATH that logs each run's subcommand, and returns them. */
function gitRuns(body: () => void): string[] {
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const bin = join(scratch(), 'bin');
  const log = join(bin, 'runs.log');
  mkdirSync(bin);
  writeFileSync(log, '');
  writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$1" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  const path = process.env.PATH;
  process.env.PATH = `${bin}:${path ?? ''}`;
  try {
    body();
  } finally {
    process.env.PATH = path;
  }
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

describe('initRepo and initEmptyRepo', () => {
  it('make the repository `git init -b` makes, with the initial commit on main', () => {
    const made = initRepo({ 'a.txt': 'a\n' }, join(scratch(), 'made'));
    const reference = join(scratch(), 'reference');
    gitIn(scratch(), 'init', '-q', '-b', 'main', reference);
    expect(gitIn(made, 'config', '--list', '--local')).toBe(gitIn(reference, 'config', '--list', '--local'));
    expect(gitIn(made, 'symbolic-ref', 'HEAD')).toBe('refs/heads/main');
    expect(gitIn(made, 'log', '--format=%s')).toBe('initial');
    expect(gitIn(made, 'status', '--porcelain')).toBe('');
    expect(gitIn(made, 'rev-parse', '--show-toplevel')).toBe(made);
    gitIn(made, 'fsck', '--strict');
  });

  it('name another branch as `init -b` does, and leave an existing repository to git', () => {
    const dir = join(scratch(), 'trunk');
    initEmptyRepo(dir, 'trunk');
    expect(gitIn(dir, 'symbolic-ref', 'HEAD')).toBe('refs/heads/trunk');
    writeFiles(dir, { 'b.txt': 'b\n' });
    const head = commitAll(dir, 'first');
    initEmptyRepo(dir, 'trunk');
    expect(gitIn(dir, 'rev-parse', 'HEAD')).toBe(head);
  });

  it('start two git processes for a repository with one commit (add, commit)', () => {
    const dir = join(scratch(), 'counted');
    initRepo({ 'x.txt': 'x\n' }); // the per-process `git init` template exists from here on
    expect(gitRuns(() => initRepo({ 'x.txt': 'x\n' }, dir))).toEqual(['add', '-c']);
  });
});

describe('commitAll', () => {
  it("returns the new commit's full hash: root commit, on a branch, detached, with a date", () => {
    const dir = initRepo({ 'a.txt': 'a\n' }, join(scratch(), 'r'));
    expect(gitIn(dir, 'rev-list', '--count', 'HEAD')).toBe('1');
    writeFiles(dir, { 'a.txt': 'b\n', 'new.txt': 'n\n' });
    const second = commitAll(dir, 'second [x] 0123456789012345678901234567890123456789] y');
    expect(second).toBe(gitIn(dir, 'rev-parse', 'HEAD'));
    expect(gitIn(dir, 'status', '--porcelain')).toBe('');
    gitIn(dir, 'checkout', '-q', '--detach');
    writeFiles(dir, { 'a.txt': 'c\n' });
    const detached = commitAll(dir, 'detached', '2026-01-02T03:04:05Z');
    expect(detached).toBe(gitIn(dir, 'rev-parse', 'HEAD'));
    expect(gitIn(dir, 'log', '-1', '--format=%aI %cI')).toBe('2026-01-02T03:04:05+00:00 2026-01-02T03:04:05+00:00');
    expect(gitIn(dir, 'rev-parse', 'main')).toBe(second);
  });
});

describe('userStateFingerprint', () => {
  it('changes with HEAD, the index, a ref, a file or its mode; not with a read; one git process', () => {
    const dir = initRepo({ 'a.txt': 'a\n', 'run.sh': 'echo\n' }, join(scratch(), 'fp'));
    let previous = '';
    expect(gitRuns(() => (previous = userStateFingerprint(dir)))).toEqual(['for-each-ref']);
    gitIn(dir, 'log', '--oneline');
    expect(userStateFingerprint(dir)).toBe(previous);
    const step = (change: () => void): void => {
      change();
      const fingerprint = userStateFingerprint(dir);
      expect(fingerprint).not.toBe(previous);
      previous = fingerprint;
    };
    step(() => gitIn(dir, 'checkout', '-q', '--detach')); // same commit, HEAD no longer on main
    step(() => gitIn(dir, 'checkout', '-q', 'main'));
    step(() => gitIn(dir, 'branch', 'other'));
    step(() => writeFiles(dir, { 'a.txt': 'b\n' }));
    step(() => gitIn(dir, 'add', 'a.txt'));
    step(() => chmodSync(join(dir, 'run.sh'), 0o755));
    step(() => gitIn(dir, 'stash', '-q'));
  });

  it("in a linked worktree reads that worktree's HEAD and index", () => {
    const dir = initRepo({ 'a.txt': 'a\n' }, join(scratch(), 'main'));
    const linked = join(scratch(), 'linked');
    gitIn(dir, 'worktree', 'add', '-q', '-b', 'side', linked);
    const before = userStateFingerprint(linked);
    gitIn(dir, 'checkout', '-q', '--detach');
    expect(userStateFingerprint(linked)).toBe(before);
    gitIn(linked, 'checkout', '-q', '--detach');
    expect(userStateFingerprint(linked)).not.toBe(before);
    const detached = userStateFingerprint(linked);
    writeFiles(linked, { 'a.txt': 'b\n' });
    gitIn(linked, 'add', 'a.txt');
    writeFiles(linked, { 'a.txt': 'a\n' });
    expect(userStateFingerprint(linked)).not.toBe(detached);
  });
});
