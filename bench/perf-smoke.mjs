// The perf bench in its smoke mode (a 300-file repository, 2 runs per row), end to end against the
// built CLI, then a check that every row of the table was measured: every hook path the bench drives
// still runs on a generated repository. Not timed. Moved out of the unit suite (it takes minutes).
// Run: npm run bench:smoke (builds first). Exit 1 names the rows that have no measured value.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const NUMBER = /-?\d[\d,]*(\.\d+)? (ms|MiB|%)/;
const ROWS = [
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

const dir = mkdtempSync(join(tmpdir(), 'perf-smoke-'));
const problems = [];
try {
  const out = join(dir, 'perf.md');
  const run = spawnSync(process.execPath, [join(ROOT, 'bench', 'perf.mjs'), '--smoke', '--out', out], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  if (run.status !== 0) {
    console.error(run.stderr);
    problems.push(`bench/perf.mjs --smoke exited ${run.status}`);
  } else {
    const table = readFileSync(out, 'utf8');
    const lines = table.split('\n');
    for (const label of ROWS) {
      const line = lines.find((l) => l.startsWith(`| ${label}`));
      if (!line) problems.push(`row missing: ${label}`);
      else if (!NUMBER.test(line.split('|')[2] ?? '')) problems.push(`row without a measured value: ${label}`);
    }
    const scaling = (table.split('## Scaling')[1] ?? '').split('\n').filter((l) => /^\| \d+ \|/.test(l));
    if (scaling.map((l) => l.split('|')[1]?.trim()).join(',') !== '2,10') problems.push('scaling rows are not 2 and 10 agents');
    for (const line of scaling) if (!/\d ms/.test(line.split('|')[3] ?? '')) problems.push(`scaling row without a time: ${line}`);
    if (!/load average \(1\/5\/15 min\) at start [\d.]+ \/ [\d.]+ \/ [\d.]+/.test(table)) problems.push('no load average');
    if (!table.includes('Node v') || !table.includes('git version')) problems.push('no Node or git version');
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (problems.length > 0) {
  console.error(`perf smoke: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('perf smoke: every row measured');
