// Speed benchmark (issue 7, section 2): the hooks on a large generated repository.
// 10,000 TypeScript files in nested packages, a bare remote with 10 peer branches, 10 linked
// worktrees with committed and uncommitted work. Measures in one run, side by side, whole
// processes (start to exit): the floor (`git status --porcelain` in every worktree), pre-commit
// warm and cold, pre-push with a fetch and an incremental graph refresh, a full graph build,
// peak memory, one real `git commit` through the installed shim, and scan time for 2–200 agents.
// Run: npm run bench:perf (builds first). `--smoke`: a tiny repository, 2 runs each (CI).
// Options: --out <file> (default bench/results/perf.md), --keep (leave the temp dir).
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { generateRepo, editedSource, SIZES, GENERATOR_VERSION } from './lib/generate-repo.mjs';
import { benchGitEnv, gitIn } from './lib/git-run.mjs';
import { median, nodeMaxRss, gnuTimeMaxRss, sample, timeProcess } from './lib/measure.mjs';
import { rng } from './lib/rng.mjs';
import { renderPerfMarkdown } from './lib/render-perf.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const PROJECT = join(HERE, '..');
const BIN = join(PROJECT, 'bin', 'airspace-hooks.js');

const { values: opts } = parseArgs({ options: { smoke: { type: 'boolean' }, out: { type: 'string' }, keep: { type: 'boolean' } } });
const mode = opts.smoke ? 'smoke' : 'full';
const size = SIZES[mode];
const RUNS = opts.smoke ? { warm: 2, slow: 2, cruise: 1, scale: 1 } : { warm: 7, slow: 3, cruise: 1, scale: 1 };
const SCALE_AGENTS = opts.smoke ? [2, 10] : [2, 10, 50, 200];
const SCALE_TIMEOUT_MS = opts.smoke ? 60_000 : 240_000;
const out = opts.out ?? join(PROJECT, 'bench', 'results', 'perf.md');
const log = (text) => process.stderr.write(`[perf] ${text}\n`);

const load = { start: loadavg() };
const root = mkdtempSync(join(tmpdir(), 'airspace-perf-'));
// Hook processes run as git would run them: no GIT_* from whoever started the bench.
const env = benchGitEnv({ AIRSPACE_NO_COLOR: '1', NO_COLOR: '1' });
const node = (cwd, args, extra = {}) => timeProcess(process.execPath, [BIN, ...args], { cwd, env, ...extra });

try {
  log(`generating the ${mode} repository in ${root}`);
  const genStart = performance.now();
  const gen = generateRepo(root, size);
  const generateMs = performance.now() - genStart;
  const ownship = gen.worktrees[0].dir; // every hook below runs in worktree 1, an agent among 10
  const allTrees = [gen.repo, ...gen.worktrees.map((w) => w.dir)];
  const commonDir = join(gen.repo, '.git');
  const cacheDir = join(commonDir, 'airspace');
  const dropCache = () => rmSync(cacheDir, { recursive: true, force: true });
  const rows = {};
  const record = (key, label, s, note = '') => {
    rows[key] = { label, median: median(s.ms), min: Math.min(...s.ms), runs: s.ms.length, codes: s.codes, note, timedOut: s.timedOut };
    log(`${label}: median ${rows[key].median.toFixed(0)} ms over ${s.ms.length} (exit ${[...new Set(s.codes)].join('/')})`);
  };

  // 1. The full graph build, through the product: `graph build` (what `install` and the background
  // build run, here in the foreground and not niced) after deleting the cache. (One full run also
  // makes the page cache warm for everything below.)
  record(
    'fullCruise',
    'full graph build: `airspace-hooks graph build` after deleting the cache (every source file read)',
    sample(RUNS.cruise, () => node(ownship, ['graph', 'build']), dropCache),
  );
  const cachedFiles = summarize(node(ownship, ['check', '--json']).stdout)?.graph.files ?? 0;
  const backup = join(root, 'airspace-cache-backup');
  node(ownship, ['hook', 'pre-commit']); // warm: one untimed run (history written, files in page cache)
  cpSync(cacheDir, backup, { recursive: true });

  // 2. Floor, warm and cold pre-commit, interleaved round by round so that load from other work
  // on the machine lands on every row alike. Cold = no `airspace/` cache at all (no import graph,
  // no history): what a fresh clone pays; pre-commit never builds the graph, so the dependency
  // channel is "unknown" there. The cache is restored after each cold run.
  const interleaved = { floor: [], floor1: [], nodeFloor: [], hookImport: [], warmPreCommit: [], coldPreCommit: [] };
  const importHook = `await import(${JSON.stringify(join(PROJECT, 'dist', 'cli', 'hook-entry.js'))})`;
  for (let i = 0; i < RUNS.warm; i++) {
    const start = performance.now();
    for (const dir of allTrees) timeProcess('git', ['status', '--porcelain'], { cwd: dir, env });
    interleaved.floor.push({ ms: performance.now() - start, code: 0 });
    interleaved.floor1.push(timeProcess('git', ['status', '--porcelain'], { cwd: ownship, env }));
    interleaved.nodeFloor.push(timeProcess(process.execPath, ['-e', '0'], { env }));
    interleaved.hookImport.push(timeProcess(process.execPath, ['--input-type=module', '-e', importHook], { env }));
    interleaved.warmPreCommit.push(node(ownship, ['hook', 'pre-commit']));
    dropCache();
    interleaved.coldPreCommit.push(node(ownship, ['hook', 'pre-commit']));
    dropCache();
    cpSync(backup, cacheDir, { recursive: true });
  }
  const asSample = (list) => ({ ms: list.map((r) => r.ms), codes: list.map((r) => r.code), last: list.at(-1), timedOut: false });
  record('floor', `floor: \`git status --porcelain\` in ${allTrees.length} worktrees, sequentially`, asSample(interleaved.floor));
  record('floor1', '`git status --porcelain` in one worktree', asSample(interleaved.floor1));
  record('nodeFloor', '`node -e 0` (bare Node start-up)', asSample(interleaved.nodeFloor));
  record('hookImport', 'Node start-up + loading the hook modules (`import(dist/cli/hook-entry.js)`, nothing run)', asSample(interleaved.hookImport));
  record('warmPreCommit', 'pre-commit WARM (graph cache present, after one run)', asSample(interleaved.warmPreCommit));
  record('coldPreCommit', 'pre-commit COLD (no `airspace/` cache: graph missing, dependency channel unknown)', asSample(interleaved.coldPreCommit));
  const warmReport = node(ownship, ['hook', 'pre-commit', '--json']);
  // A warm run that did not read the graph would make the warm row a second cold row: say so loudly.
  const warmGraph = summarize(warmReport.stdout)?.graph;
  const warnings = [];
  if (warmGraph?.source !== 'cache' || warmGraph.files !== gen.files.length)
    warnings.push(
      `the warm pre-commit did not use a complete graph cache (source ${warmGraph?.source}, ${warmGraph?.files} files): the warm row is not warm (was dist rebuilt during the run?)`,
    );
  if (cachedFiles !== gen.files.length) warnings.push(`the full build cached ${cachedFiles} of ${gen.files.length} files`);
  const rss = [];
  for (let i = 0; i < RUNS.slow; i++) rss.push(nodeMaxRss(BIN, ['hook', 'pre-commit'], { cwd: ownship, env }).rssBytes);
  const gnuRss = existsSync('/usr/bin/time') ? gnuTimeMaxRss(process.execPath, [BIN, 'hook', 'pre-commit'], { cwd: ownship, env }) : null;

  // 5. Pre-push: 5 files changed and committed, the hook fetches, refreshes the graph, may block.
  const random = rng(7);
  const area = gen.files.filter((f) => f.startsWith(gen.files[0].slice(0, gen.files[0].lastIndexOf('/'))));
  let round = 0;
  const changeFive = () => {
    round++;
    const picked = area.slice(round * 5, round * 5 + 5);
    for (const path of picked) writeFileSync(join(ownship, path), editedSource(readFileSync(join(ownship, path), 'utf8'), `push-${round}`, random));
    gitIn(ownship, ['commit', '-q', '--no-verify', '-m', `push round ${round}`, '--', ...picked]);
  };
  const pushLine = () =>
    `refs/heads/${gen.worktrees[0].name} ${gitIn(ownship, ['rev-parse', 'HEAD']).trim()} refs/heads/${gen.worktrees[0].name} ${'0'.repeat(40)}\n`;
  /** @type {{ code: number | null; stderr: string } | undefined} */
  let lastPush;
  record(
    'prePush',
    'pre-push: fetch from the local remote + incremental graph refresh after 5 changed files (+ beacon publish)',
    sample(RUNS.slow, () => (lastPush = node(ownship, ['hook', 'pre-push', 'origin', gen.remote], { input: pushLine() })), changeFive),
  );
  const pushJson = node(ownship, ['check', '--json']);

  // 6. One real `git commit` through the installed shim (PATH finds airspace-hooks), vs --no-verify.
  const binDir = join(root, 'bin');
  mkdirSync(binDir);
  symlinkSync(BIN, join(binDir, 'airspace-hooks'));
  const shimEnv = { ...env, PATH: `${binDir}:${process.env.PATH}` };
  timeProcess(process.execPath, [BIN, 'install', '--force'], { cwd: gen.repo, env: shimEnv });
  let edits = 0;
  const stageOne = () => {
    const path = area[area.length - 1 - (edits++ % 5)];
    writeFileSync(join(ownship, path), editedSource(readFileSync(join(ownship, path), 'utf8'), `commit-${edits}`, random));
    gitIn(ownship, ['add', '--', path]);
  };
  record(
    'commitShim',
    '`git commit` with the installed pre-commit shim',
    sample(RUNS.slow, () => timeProcess('git', ['commit', '-q', '-m', 'shim'], { cwd: ownship, env: shimEnv }), stageOne),
  );
  record(
    'commitBare',
    '`git commit --no-verify` (same change size)',
    sample(RUNS.slow, () => timeProcess('git', ['commit', '-q', '--no-verify', '-m', 'bare'], { cwd: ownship, env: shimEnv }), stageOne),
  );

  // 7. Scaling: `scan --json` over N explicit agents (all pairs), the graph cache warm.
  const scaling = [];
  // Untimed: the main worktree's content differs from worktree 1's, so its first scan refreshes the graph.
  node(gen.repo, ['scan', '--json', '--agent=s1=scale-001', '--agent=s2=scale-002']);
  for (const n of SCALE_AGENTS) {
    const specs = Array.from({ length: n }, (_, i) => `--agent=s${i + 1}=scale-${String(i + 1).padStart(3, '0')}`);
    const s = sample(RUNS.scale, () => node(gen.repo, ['scan', '--json', ...specs], { timeoutMs: SCALE_TIMEOUT_MS }));
    let pairs = null;
    let listed = null;
    try {
      // report@2: `links` lists the pairs with contact, `pairs.compared` counts every pair.
      const report = JSON.parse(s.last.stdout);
      pairs = report.pairs?.compared ?? report.links.length;
      listed = report.links.length;
    } catch {}
    scaling.push({ agents: n, pairs, listed, median: median(s.ms), runs: s.ms.length, timedOut: s.timedOut, code: s.last.code });
    log(`scan ${n} agents: ${median(s.ms).toFixed(0)} ms, ${pairs} pairs, ${listed} listed${s.timedOut ? ' (timed out)' : ''}`);
    if (s.timedOut) break;
  }

  load.end = loadavg();
  const facts = {
    mode,
    generatorVersion: GENERATOR_VERSION,
    files: gen.files.length,
    cachedFiles,
    peers: size.peers,
    worktrees: size.worktrees,
    generateMs,
    generateSteps: gen.timings,
    cpus: `${cpus().length} × ${cpus()[0]?.model?.trim() ?? 'unknown'}`,
    memory: `${Math.round(totalmem() / 2 ** 30)} GiB`,
    node: process.version,
    git: timeProcess('git', ['--version'], { env }).stdout.trim(),
    load,
    command: opts.smoke ? 'node bench/perf.mjs --smoke' : 'npm run bench:perf',
    date: new Date().toISOString(),
  };
  const warmSummary = summarize(warmReport.stdout);
  const pushSummary = summarize(pushJson.stdout);
  const markdown = renderPerfMarkdown({
    warnings,
    rows,
    rss,
    gnuRss,
    scaling,
    facts,
    warmSummary,
    pushSummary,
    pushExit: lastPush?.code,
    pushStderr: lastPush?.stderr ?? '',
  });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, markdown);
  process.stdout.write(markdown);
} finally {
  if (opts.keep) log(`kept ${root}`);
  else rmSync(root, { recursive: true, force: true });
}

function summarize(text) {
  try {
    const report = JSON.parse(text);
    return { agents: report.agents.length, links: report.links.length, graph: report.scanned.graph, advisories: report.advisories.length };
  } catch {
    return null;
  }
}
