import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The perf bench in its smoke mode (a 300-file repository, 2 runs per row), end to end against the
// built CLI. Not a timed assertion: it checks that every row of the table was measured, i.e. that
// every hook path the bench drives still runs on a generated repository.
const ROOT = join(import.meta.dirname, '..', '..', '..');
const NUMBER = /-?\d[\d,]*(\.\d+)? (ms|MiB|%)/;

describe('bench/perf.mjs --smoke', () => {
  it('writes a table with a measured value on every row', () => {
    const dir = mkdtempSync(join(tmpdir(), 'perf-smoke-'));
    try {
      const out = join(dir, 'perf.md');
      const run = spawnSync(process.execPath, [join(ROOT, 'bench', 'perf.mjs'), '--smoke', '--out', out], { cwd: ROOT, encoding: 'utf8', timeout: 170_000 });
      expect(run.status, run.stderr).toBe(0);
      const table = readFileSync(out, 'utf8');
      const rows = [
        'floor: `git status --porcelain` in 3 worktrees',
        '`git status --porcelain` in one worktree',
        'Node start-up + loading the hook modules',
        'pre-commit COLD',
        'pre-commit WARM',
        'pre-push: fetch from the local remote',
        'full dependency-cruiser cruise',
        '`git commit` with the installed pre-commit shim',
        '`git commit --no-verify`',
        'peak RSS of the warm pre-commit (Node process',
        'warm pre-commit − floor',
        'pre-push / full cruise',
        'warm pre-commit peak RSS',
      ];
      for (const label of rows) {
        const line = table.split('\n').find((l) => l.startsWith(`| ${label}`));
        expect(line, label).toBeDefined();
        const value = line!.split('|')[2]!;
        expect(value, label).toMatch(NUMBER);
      }
      const scaling = table.split('## Scaling')[1]!.split('\n').filter((l) => /^\| \d+ \|/.test(l));
      expect(scaling.map((l) => l.split('|')[1]!.trim())).toEqual(['2', '10']);
      for (const line of scaling) expect(line.split('|')[3]).toMatch(/\d ms/);
      expect(table).toMatch(/load average \(1\/5\/15 min\) at start [\d.]+ \/ [\d.]+ \/ [\d.]+/);
      expect(table).toContain('Node v');
      expect(table).toContain('git version');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
