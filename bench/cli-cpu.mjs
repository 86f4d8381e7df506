// CPU of one CLI run (issue 14: the suite's 251 CLI runs cost 220 s of CPU). Side by side in one
// run, interleaved so a busy machine weighs on every row alike: the floor (`node -e 0`),
// `--version` (start-up of the full CLI), `check` in a small TypeScript repository with a warm
// graph cache, and `check` with a cold graph (cache deleted; `AIRSPACE_GRAPH_BACKGROUND=off`, so
// the refresh runs in the foreground as in the test suite), `intent list` (start-up plus one git
// call), `install` into a fresh repository (its hooks removed before each sample), and the
// installed `hook pre-commit` with a staged file. CPU = user + sys of the process and
// of the git processes it waited for (GNU time), the cost a machine pays; wall time is not
// reported (the machine is shared). Median of --runs (default 7).
// Run: npm run build && node bench/cli-cpu.mjs [--runs N] [--baseline <checkout with a build>]
// Each --baseline (repeatable) adds the same rows for another checkout's bin/airspace-hooks.js
// (e.g. a build of main), measured in the same rounds.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { benchGitEnv, gitIn } from './lib/git-run.mjs';
import { median } from './lib/measure.mjs';

const PROJECT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({ options: { runs: { type: 'string' }, baseline: { type: 'string', multiple: true } } });
const RUNS = Number(opts.runs ?? 7);
const builds = [{ name: 'this build', bin: join(PROJECT, 'bin', 'airspace-hooks.js') }];
for (const dir of opts.baseline ?? []) builds.push({ name: `baseline ${dir}`, bin: join(resolve(dir), 'bin', 'airspace-hooks.js') });

const root = mkdtempSync(join(tmpdir(), 'airspace-cli-cpu-'));
const env = benchGitEnv({ NO_COLOR: '1', AIRSPACE_GRAPH_BACKGROUND: 'off', AIRSPACE_HOOKS_BUDGET_MS: '120000' });

/** user + sys seconds of `command args` and the children it waited for. */
function cpuOf(cwd, command, args) {
  const result = spawnSync('/usr/bin/time', ['-f', '%U %S', command, ...args], { cwd, env, encoding: 'utf8', timeout: 120_000 });
  const line = result.stderr.trim().split('\n').at(-1) ?? '';
  const [user, sys] = line.split(' ').map(Number);
  if (!Number.isFinite(user) || !Number.isFinite(sys)) throw new Error(`no timing from ${command} ${args.join(' ')}: ${result.stderr}`);
  return user + sys;
}

const write = (dir, files) => {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
};

try {
  // A small TypeScript repository: 5 files with relative imports, a remote, a peer branch that
  // edits the same file as our uncommitted work (so `check` has a pair to score).
  const seed = join(root, 'seed');
  mkdirSync(seed);
  gitIn(seed, ['init', '-q', '-b', 'main']);
  write(seed, {
    'src/a.ts': "import { b } from './b.js';\nexport const a = () => b() + 1;\n",
    'src/b.ts': "import { c } from './c.js';\nexport const b = () => c() * 2;\n",
    'src/c.ts': "import { d } from './d.js';\nexport const c = () => d() - 3;\n",
    'src/d.ts': "import { e } from './e.js';\nexport const d = () => e() / 4;\n",
    'src/e.ts': `${Array.from({ length: 40 }, (_, i) => `export const v${i} = ${i};`).join('\n')}\nexport const e = () => 5;\n`,
  });
  gitIn(seed, ['add', '-A']);
  gitIn(seed, ['commit', '-q', '-m', 'initial']);
  const remote = join(root, 'remote.git');
  gitIn(root, ['init', '-q', '--bare', '-b', 'main', remote]);
  gitIn(seed, ['push', '-q', remote, 'main']);
  const peer = join(root, 'peer');
  const own = join(root, 'own');
  gitIn(root, ['clone', '-q', remote, peer]);
  gitIn(root, ['clone', '-q', remote, own]);
  gitIn(peer, ['switch', '-q', '-c', 'peer/work']);
  write(peer, { 'src/e.ts': 'export const e = () => 6;\n' });
  gitIn(peer, ['commit', '-q', '-am', 'peer: e']);
  gitIn(peer, ['push', '-q', 'origin', 'peer/work']);
  gitIn(own, ['switch', '-q', '-c', 'own/work']);
  gitIn(own, ['fetch', '-q', 'origin']);
  write(own, { 'src/e.ts': 'export const e = () => 7;\n' });
  const dropGraph = () => rmSync(join(own, '.git', 'airspace', 'graph-v1.json'), { force: true });
  // `install` needs a repository without our hooks: a one-commit repository whose hooks directory
  // is emptied before each sample (install writes the same shims every time).
  const fresh = join(root, 'fresh');
  mkdirSync(fresh);
  gitIn(fresh, ['init', '-q', '-b', 'main']);
  write(fresh, { 'index.ts': 'export const x = 1;\n' });
  gitIn(fresh, ['add', '-A']);
  gitIn(fresh, ['commit', '-q', '-m', 'initial']);
  const freshHooks = join(fresh, '.git', 'hooks');
  const dropHooks = () => {
    rmSync(freshHooks, { recursive: true, force: true });
    mkdirSync(freshHooks);
  };
  // The hook row runs the pre-commit hook as the installed shim would, in `own` (a peer branch on
  // the remote, uncommitted work on the same file) with that work staged.
  gitIn(own, ['add', 'src/e.ts']);

  const rows = [{ key: 'floor', label: '`node -e 0` (the floor)', run: () => cpuOf(own, process.execPath, ['-e', '0']) }];
  for (const build of builds) {
    const cli = (args) => cpuOf(own, process.execPath, [build.bin, ...args]);
    // One run first so the graph cache exists for the warm row.
    spawnSync(process.execPath, [build.bin, 'check'], { cwd: own, env });
    rows.push(
      { key: `${build.name} version`, label: `${build.name}: \`--version\``, run: () => cli(['--version']) },
      { key: `${build.name} check`, label: `${build.name}: \`check\`, 5-file repository, warm graph`, run: () => cli(['check']) },
      { key: `${build.name} intent`, label: `${build.name}: \`intent list\``, run: () => cli(['intent', 'list']) },
      {
        key: `${build.name} install`,
        label: `${build.name}: \`install\`, fresh repository`,
        run: () => {
          dropHooks();
          return cpuOf(fresh, process.execPath, [build.bin, 'install']);
        },
      },
      { key: `${build.name} pre-commit`, label: `${build.name}: \`hook pre-commit\`, staged change`, run: () => cli(['hook', 'pre-commit']) },
      {
        key: `${build.name} cold`,
        label: `${build.name}: \`check\`, same repository, cold graph (foreground refresh)`,
        run: () => {
          dropGraph();
          const cpu = cli(['check']);
          // The warm row expects a cache: leave one behind.
          spawnSync(process.execPath, [build.bin, 'check'], { cwd: own, env });
          return cpu;
        },
      },
    );
  }
  const samples = new Map(rows.map((row) => [row.key, []]));
  const loadStart = loadavg()[0];
  for (let round = 0; round < RUNS; round++) for (const row of rows) samples.get(row.key).push(row.run());
  const floor = median(samples.get('floor'));
  console.log(`CPU per run (user+sys, s; median of ${RUNS}, interleaved; load ${loadStart.toFixed(1)} → ${loadavg()[0].toFixed(1)})`);
  console.log('| run | CPU s | above the floor |\n|---|---:|---:|');
  for (const row of rows) {
    const value = median(samples.get(row.key));
    console.log(`| ${row.label} | ${value.toFixed(2)} | ${row.key === 'floor' ? '' : (value - floor).toFixed(2)} |`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
