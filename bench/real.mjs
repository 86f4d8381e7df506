// Real-repository benchmark (issue 13, point 7): the hooks on a clone of a real TypeScript
// repository, as a new user meets them. In ONE run, with its baselines:
//   1. cold first push of a real conflicting pair: a bare remote and two clones that edit the same
//      lines of one source file; B pushes, then A pushes through the installed pre-push shim with
//      no import graph and no `airspace/` state. Blocked? Time against the pre-push budget.
//      Baseline: the same push with --no-verify --dry-run (the transport alone).
//   2. the full import-graph build (`airspace-hooks graph build`, foreground).
//   3. warm pre-commit (graph cache present) against the floor: `git status` in every worktree of
//      the clone (its own and two linked agent worktrees with uncommitted work).
//   4. warm pre-push (fetch, graph cache present) of the same conflicting branch.
// With --baseline DIR (another build of this package, e.g. a copy of main's bin/ + dist/) every
// hook row runs both builds, interleaved round by round, so load from other work lands on both.
// Wall clock AND CPU (user + sys of the process and its git children, GNU time) are recorded:
// on a shared machine the CPU column is the comparable one.
// Run: npm run bench:real -- --mirror /path/to/a/git/repo (or AIRSPACE_REAL_MIRROR=...).
// Options: --runs N (default 5), --baseline DIR, --file PATH (the file both agents edit),
// --out FILE (default bench/results/real.md), --keep (leave the temp dir). Not part of `npm test`.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { benchGitEnv, gitIn } from './lib/git-run.mjs';
import { median } from './lib/measure.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const PROJECT = join(HERE, '..');
const { values: opts } = parseArgs({
  options: {
    mirror: { type: 'string' },
    baseline: { type: 'string' },
    runs: { type: 'string' },
    file: { type: 'string' },
    out: { type: 'string' },
    keep: { type: 'boolean' },
  },
});
const log = (text) => process.stderr.write(`[real] ${text}\n`);
const mirror = opts.mirror ?? process.env.AIRSPACE_REAL_MIRROR;
if (!mirror) {
  log('no repository given: pass --mirror PATH (a git repository, bare or not) or set AIRSPACE_REAL_MIRROR');
  log('e.g. npm run bench:real -- --mirror /work/.mirror/trpc+trpc/repo');
  process.exit(2);
}
if (spawnSync('git', ['-C', mirror, 'rev-parse', '--git-dir'], { env: benchGitEnv(), encoding: 'utf8' }).status !== 0) {
  log(`not a git repository: ${mirror} (pass --mirror PATH or AIRSPACE_REAL_MIRROR)`);
  process.exit(2);
}
const RUNS = Math.max(1, Number(opts.runs ?? 5));
const out = opts.out ?? join(PROJECT, 'bench', 'results', 'real.md');
const builds = [{ name: 'this build', bin: join(PROJECT, 'bin', 'airspace-hooks.js') }];
if (opts.baseline) {
  const bin = join(resolve(opts.baseline), 'bin', 'airspace-hooks.js');
  if (!existsSync(bin)) {
    log(`--baseline: no ${bin}`);
    process.exit(2);
  }
  builds.push({ name: 'baseline', bin });
}
const defaults = await import(join(PROJECT, 'dist', 'config', 'defaults.js'));
const PUSH_BUDGET_MS = defaults.DEFAULT_CONFIG.hooks['pre-push'].budgetMs;
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

const load = { start: loadavg() };
const root = mkdtempSync(join(tmpdir(), 'airspace-real-'));
// Hooks run as git runs them: no GIT_* from whoever started the bench, no colour. The background
// graph build stays off so that no build from one row loads the machine during the next.
const env = benchGitEnv({ AIRSPACE_NO_COLOR: '1', NO_COLOR: '1', AIRSPACE_GRAPH_BACKGROUND: 'off' });

/** One process to completion: wall clock (spawn to exit) and, with GNU time, CPU of it and its children. */
function timed(command, args, options = {}) {
  const cpuFile = join(root, 'cpu.txt');
  const [cmd, argv] = TIME ? [TIME, ['-f', '%U %S', '-o', cpuFile, command, ...args]] : [command, args];
  const start = performance.now();
  const r = spawnSync(cmd, argv, { cwd: options.cwd, env: options.env ?? env, input: options.input ?? '', encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  const ms = performance.now() - start;
  if (r.error) throw r.error;
  let cpuMs = NaN;
  if (TIME) {
    const fields = readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1)?.split(' ').map(Number) ?? [];
    if (fields.length === 2) cpuMs = (fields[0] + fields[1]) * 1000;
  }
  return { ms, cpuMs, code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}
const hook = (build, cwd, args, input, extra = {}) => timed(process.execPath, [build.bin, ...args], { cwd, input, env: { ...env, ...extra } });
// A hook past its budget stops early and its time is the budget's, not a check's: the warm rows
// run unbounded (the full check), and one row per build shows what the configured budget does.
const UNBOUNDED = { AIRSPACE_HOOKS_BUDGET_MS: '600000' };

const rows = [];
/** A hook that reached its budget stopped early: its time is not the time of a full check. */
const cutNote = (results) => {
  const cut = results.filter((r) => /reached its \d+ ms budget/.test(r.stderr)).length;
  return cut > 0 ? `**${cut} of ${results.length} cut by the budget**` : '';
};
const record = (label, results, note = '') => {
  const row = {
    label,
    median: median(results.map((r) => r.ms)),
    min: Math.min(...results.map((r) => r.ms)),
    cpu: median(results.map((r) => r.cpuMs)),
    runs: results.length,
    exits: [...new Set(results.map((r) => r.code))].join('/'),
    note: [note, cutNote(results)].filter(Boolean).join('; '),
  };
  rows.push(row);
  log(`${label}: median ${row.median.toFixed(0)} ms wall, ${row.cpu.toFixed(0)} ms CPU (${row.runs} runs, exit ${row.exits})`);
  return row;
};

try {
  // Setup: a bare remote, clones A and B, a conflicting edit on each side.
  log(`cloning ${mirror} into ${root}`);
  const remote = join(root, 'remote.git');
  gitIn(root, ['clone', '-q', '--bare', mirror, remote]);
  const a = join(root, 'a');
  const b = join(root, 'b');
  gitIn(root, ['clone', '-q', remote, a]);
  gitIn(root, ['clone', '-q', remote, b]);
  const files = gitIn(a, ['ls-files']).split('\n').filter(Boolean);
  const sources = files.filter((f) => /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/.test(f));
  const target = opts.file ?? pickConflictFile(a);
  log(`${files.length} files (${sources.length} sources); both agents edit ${target}`);
  const edit = (dir, who) => {
    const lines = readFileSync(join(dir, target), 'utf8').split('\n');
    const at = Math.min(10, Math.max(0, lines.length - 6));
    for (let i = at; i < at + 5; i++) lines[i] = `// ${who} rewrote this line (${i})`;
    writeFileSync(join(dir, target), lines.join('\n'));
  };
  gitIn(a, ['switch', '-q', '-c', 'agent-a']);
  edit(a, 'agent-a');
  gitIn(a, ['commit', '-q', '--no-verify', '-am', 'agent-a edits']);
  gitIn(b, ['switch', '-q', '-c', 'agent-b']);
  edit(b, 'agent-b');
  gitIn(b, ['commit', '-q', '--no-verify', '-am', 'agent-b edits']);
  gitIn(b, ['push', '-q', '--no-verify', 'origin', 'agent-b']);

  // The installed shims find `airspace-hooks` on PATH (the clone has no node_modules): one bin dir per build.
  const shimEnv = builds.map((build, i) => {
    const dir = join(root, `bin-${i}`);
    mkdirSync(dir);
    symlinkSync(build.bin, join(dir, 'airspace-hooks'));
    return { ...env, PATH: `${dir}:${process.env.PATH}` };
  });
  // The package's own shims, as `install` writes them into .git/hooks: trpc and zod use husky, whose
  // hooks run only after `pnpm install` (install would add our block to .husky/ instead).
  for (const name of ['pre-commit', 'pre-push']) {
    const shim = join(a, '.git', 'hooks', name);
    writeFileSync(shim, readFileSync(join(PROJECT, 'hooks', name), 'utf8'), { mode: 0o755 });
  }
  const commonDir = join(a, '.git');
  const dropState = () => rmSync(join(commonDir, 'airspace'), { recursive: true, force: true });
  // A first push has never fetched the peer: forget it, so the hook's fetch brings it in again.
  const forgetPeer = () => spawnSync('git', ['update-ref', '-d', 'refs/remotes/origin/agent-b'], { cwd: a, env });
  // A push the hook let through reached the remote: undo it, or the next run pushes nothing.
  const undoPush = () => spawnSync('git', ['update-ref', '-d', 'refs/heads/agent-a'], { cwd: remote, env });

  // 1. Cold first push through the shim, each build in turn, interleaved.
  const cold = builds.map(() => []);
  const dry = [];
  for (let i = 0; i < Math.min(RUNS, 3); i++) {
    builds.forEach((_, k) => {
      dropState();
      forgetPeer();
      cold[k].push(timed('git', ['push', 'origin', 'agent-a'], { cwd: a, env: shimEnv[k] }));
      undoPush();
    });
    dry.push(timed('git', ['push', '--no-verify', '--dry-run', 'origin', 'agent-a'], { cwd: a }));
  }
  const blocked = cold.map((list) => list.map((r) => r.code !== 0 && /\bRA\b/.test(r.stderr)));
  for (const [k, build] of builds.entries()) {
    record(
      `cold first push of the conflicting pair (\`git push\` through the shim, no graph, no state) — ${build.name}`,
      cold[k],
      `blocked with an RA in ${blocked[k].filter(Boolean).length} of ${blocked[k].length}; budget ${PUSH_BUDGET_MS} ms`,
    );
  }
  record('baseline: `git push --no-verify --dry-run` (the transport alone)', dry);
  const coldStderr = cold[0].at(-1)?.stderr ?? '';

  // 2. The full graph build (this build only: the cache it writes is what the warm rows read).
  dropState();
  const build = timed(process.execPath, [builds[0].bin, 'graph', 'build'], { cwd: a });
  record('full import-graph build (`airspace-hooks graph build`, foreground)', [build]);

  // 3. Warm pre-commit vs the floor. Two agents in linked worktrees with uncommitted work; A stages an edit.
  const others = sources.filter((f) => f !== target && !f.includes('test')).slice(0, 4);
  const trees = [a];
  for (const [n, agentFiles] of [others.slice(0, 2), others.slice(2, 4)].entries()) {
    const dir = join(root, `wt-${n + 1}`);
    gitIn(a, ['worktree', 'add', '-q', '-b', `agent-wt-${n + 1}`, dir, 'HEAD~1']);
    for (const f of agentFiles) writeFileSync(join(dir, f), `${readFileSync(join(dir, f), 'utf8')}\n// agent-wt-${n + 1} was here\n`);
    trees.push(dir);
  }
  const staged = others[4] ?? others[0];
  writeFileSync(join(a, staged), `${readFileSync(join(a, staged), 'utf8')}\n// staged by agent-a\n`);
  gitIn(a, ['add', '--', staged]);
  for (const k of builds.keys()) hook(builds[k], a, ['hook', 'pre-commit'], '', UNBOUNDED); // untimed: page cache, snapshot cache, history
  const warm = builds.map(() => []);
  const floor = [];
  const floor1 = [];
  const nodeStart = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    let cpu = 0;
    for (const dir of trees) cpu += timed('git', ['status', '--porcelain'], { cwd: dir }).cpuMs;
    floor.push({ ms: performance.now() - start, cpuMs: cpu, code: 0 });
    floor1.push(timed('git', ['status', '--porcelain'], { cwd: a }));
    nodeStart.push(timed(process.execPath, ['-e', '0']));
    for (const [k, build] of builds.entries()) warm[k].push(hook(build, a, ['hook', 'pre-commit'], '', UNBOUNDED));
  }
  const budgeted = builds.map(() => []);
  for (let i = 0; i < Math.min(RUNS, 3); i++) {
    for (const [k, build] of builds.entries()) budgeted[k].push(hook(build, a, ['hook', 'pre-commit']));
  }
  const floorRow = record(`floor: \`git status --porcelain\` in ${trees.length} worktrees, sequentially`, floor);
  const floor1Row = record('`git status --porcelain` in one worktree', floor1);
  record('`node -e 0` (bare Node start-up)', nodeStart);
  const warmRows = builds.map((build, k) =>
    record(`warm pre-commit, full check (graph cache, ${trees.length - 1} worktree peers + remote branches, no budget) — ${build.name}`, warm[k]),
  );
  for (const [k, build] of builds.entries()) {
    record(`warm pre-commit with its configured budget (${defaults.DEFAULT_CONFIG.hooks['pre-commit'].budgetMs} ms) — ${build.name}`, budgeted[k]);
  }
  const warmJson = hook(builds[0], a, ['hook', 'pre-commit', '--json'], '', UNBOUNDED);

  // 4. Warm pre-push of the same branch (fetch, graph cache present): blocked again.
  const line = `refs/heads/agent-a ${gitIn(a, ['rev-parse', 'agent-a']).trim()} refs/heads/agent-a ${'0'.repeat(40)}\n`;
  const push = builds.map(() => []);
  for (let i = 0; i < Math.min(RUNS, 3); i++) {
    for (const [k, build] of builds.entries()) push[k].push(hook(build, a, ['hook', 'pre-push', 'origin', remote], line));
  }
  for (const [k, build] of builds.entries())
    record(`warm pre-push of the conflicting branch (hook called directly, fetch + graph cache) — ${build.name}`, push[k]);

  load.end = loadavg();
  const md = render({ files, sources, target, floorRow, floor1Row, warmRows, blocked, coldStderr, warmJson, build });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, md);
  process.stdout.write(md);
} finally {
  if (opts.keep) log(`kept ${root}`);
  else rmSync(root, { recursive: true, force: true });
}

/**
 * The largest hand-written TypeScript source under a src/ directory, in the packages of a
 * monorepo when there are any: where two agents realistically collide (not a test, a
 * declaration file or a generated `*.output.*` / `generated` file).
 */
function pickConflictFile(dir) {
  const entries = gitIn(dir, ['ls-tree', '-r', '-l', 'HEAD'])
    .split('\n')
    .map((l) => l.match(/^\S+ blob \S+\s+(\d+)\t(.*)$/))
    .filter((m) => m && /(^|\/)src\/.*\.tsx?$/.test(m[2]) && !/\.d\.ts$|test|spec|\.output\.|generated/i.test(m[2]))
    .map((m) => ({ path: m[2], size: Number(m[1]), inPackages: m[2].startsWith('packages/') }));
  entries.sort((x, y) => Number(y.inPackages) - Number(x.inPackages) || y.size - x.size || (x.path < y.path ? -1 : 1));
  if (!entries[0]) throw new Error('no TypeScript source under a src/ directory: pass --file PATH');
  return entries[0].path;
}

function render({ files, sources, target, floorRow, floor1Row, warmRows, blocked, coldStderr, warmJson, build }) {
  const ms = (v) => (Number.isFinite(v) ? `${Math.round(v).toLocaleString('en-US')} ms` : 'n/a');
  const head = gitIn(mirror, ['rev-parse', 'HEAD']).trim();
  const lines = ['# Real-repository benchmark', ''];
  lines.push(`Generated by \`npm run bench:real\` (bench/real.mjs) on ${new Date().toISOString()}.`, '');
  lines.push(
    `Repository: \`${mirror}\` at ${head.slice(0, 12)}, ${files.length.toLocaleString('en-US')} files (${sources.length.toLocaleString('en-US')} JS/TS sources). ` +
      `A bare remote and two clones; both agents rewrote lines 11–15 of \`${target}\` on their branches; B pushed first. ` +
      `Builds: ${builds.map((b) => `${b.name} (\`${b.bin}\`)`).join(', ')}; hook rows interleaved build by build, round by round. ` +
      `\`AIRSPACE_GRAPH_BACKGROUND=off\` (the cold rows stay cold; no build loads the machine between rows).`,
    '',
  );
  lines.push('| measure | median wall | min wall | median CPU | runs | exit | |', '|---|---:|---:|---:|---:|---|---|');
  for (const r of rows) lines.push(`| ${r.label} | ${ms(r.median)} | ${ms(r.min)} | ${ms(r.cpu)} | ${r.runs} | ${r.exits} | ${r.note} |`);
  lines.push('', '## Against the targets (same run)', '', '| | value | target | |', '|---|---:|---:|---|');
  builds.forEach((b, k) => {
    const cold = rows.find((r) => r.label.startsWith('cold first push') && r.label.endsWith(b.name));
    const allBlocked = blocked[k].every(Boolean);
    lines.push(
      `| cold first push blocked — ${b.name} | ${blocked[k].filter(Boolean).length} of ${blocked[k].length} | all | ${allBlocked ? 'met' : 'MISSED'} |`,
    );
    lines.push(
      `| cold first push, median wall — ${b.name} | ${ms(cold.median)} | ≤ ${ms(PUSH_BUDGET_MS)} | ${cold.median <= PUSH_BUDGET_MS ? 'met' : 'MISSED'} |`,
    );
    const over = warmRows[k].median - floorRow.median;
    lines.push(`| warm pre-commit − floor (status in every worktree), wall — ${b.name} | ${ms(over)} | ≤ 150 ms | ${over <= 150 ? 'met' : 'MISSED'} |`);
    lines.push(`| warm pre-commit − floor, CPU — ${b.name} | ${ms(warmRows[k].cpu - floorRow.cpu)} | (information) | |`);
    lines.push(`| warm pre-commit − one \`git status\`, wall — ${b.name} | ${ms(warmRows[k].median - floor1Row.median)} | (information) | |`);
  });
  let scanned = null;
  try {
    const report = JSON.parse(warmJson.stdout);
    scanned = `${report.agents?.length} agents, ${report.links?.length} pairs, ${report.advisories?.length} advisories; graph ${report.scanned?.graph?.source}, ${report.scanned?.graph?.files} files`;
  } catch {}
  lines.push('', '## What was scanned', '');
  lines.push(`- warm pre-commit: ${scanned ?? 'no JSON report (see stderr)'}.`);
  lines.push(`- graph build exit ${build.code}: ${build.stderr.trim().split('\n').at(-1) ?? ''}`);
  lines.push('- last cold push, hook output:', '', '```', ...coldStderr.trim().split('\n').slice(0, 12), '```', '');
  lines.push('## Machine', '');
  lines.push(
    `- ${cpus().length} × ${cpus()[0]?.model?.trim() ?? 'unknown'}, ${Math.round(totalmem() / 2 ** 30)} GiB; Node ${process.version}; ${gitIn(root, ['--version']).trim()}`,
  );
  const la = (l) => l.map((v) => v.toFixed(2)).join(' / ');
  lines.push(
    `- load average (1/5/15 min) at start ${la(load.start)}, at end ${la(load.end)}: other work inflates wall clock; compare rows of the same run, and the CPU column.`,
    '',
  );
  return `${lines.join('\n')}\n`;
}
