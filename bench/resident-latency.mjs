// Issue 25's target "an edit in one worktree shows up as an advisory in the other worktree within
// 1 s", measured end to end (docs/decisions/resident.md, "Subscriptions"): a resident runs, a real
// `airspace-hooks watch --json` in worktree A is subscribed to it, and the bench writes a file in
// worktree B that collides with A's uncommitted work (the same lines changed), then restores it —
// each write must bring a `raised` or `cleared` line. Latency = the write → the line read by the
// bench. The resident's log says how long each re-score took, the rest is the watcher's quiet
// window, chokidar and the socket.
// On a clone of expressjs/express (from /work/.mirror, or --express DIR) with a linked worktree,
// and on the generated 10,000-file repository (bench/lib/generate-repo.mjs) with --worktrees.
// Run: npm run build:js && node bench/resident-latency.mjs [--edits 9] [--size full|smoke]
//      [--worktrees 3] [--skip-express] [--skip-generated]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateRepo, SIZES } from './lib/generate-repo.mjs';
import { benchGitEnv, gitIn } from './lib/git-run.mjs';
import { median } from './lib/measure.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin', 'airspace-hooks.js');
const { values } = parseArgs({
  options: {
    edits: { type: 'string', default: '9' },
    size: { type: 'string', default: 'full' },
    worktrees: { type: 'string', default: '3' },
    express: { type: 'string', default: '/work/.mirror/expressjs+express/repo' },
    'skip-express': { type: 'boolean', default: false },
    'skip-generated': { type: 'boolean', default: false },
  },
});
const edits = Number(values.edits);
const work = mkdtempSync(join(tmpdir(), 'airspace-bench-latency-'));
const env = benchGitEnv({ AIRSPACE_GRAPH_BACKGROUND: 'off', AIRSPACE_RESIDENT: 'on', NO_COLOR: '1' });
const OFF = { ...env, AIRSPACE_RESIDENT: 'off' };
const cli = (cwd, args, e = env) => spawnSync(process.execPath, [BIN, ...args], { cwd, env: e, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** B's version of `file` that changes every line A changed (against HEAD): a merge-tree conflict, an RA. */
function colliding(a, file) {
  const base = gitIn(a, ['show', `HEAD:${file}`]).split('\n');
  return readFileSync(join(a, file), 'utf8')
    .split('\n')
    .map((line, i) => (line !== base[i] ? `${line} // the peer too` : line))
    .join('\n');
}

async function measure(name, a, b, file) {
  console.error(`${name}: warming up`);
  cli(a, ['check'], OFF);
  const log = join(gitIn(a, ['rev-parse', '--path-format=absolute', '--git-common-dir']).trim(), 'airspace', 'resident', 'resident.log');
  const watch = spawn(process.execPath, [BIN, 'watch', '--json'], { cwd: a, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const waiting = [];
  createInterface({ input: watch.stdout }).on('line', (line) => {
    const event = JSON.parse(line);
    const arrived = performance.now();
    for (const w of waiting.splice(0)) w(event, arrived);
  });
  const next = (types, timeoutMs) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name}: no ${types.join('/')} line in ${timeoutMs} ms`)), timeoutMs);
      const listen = (event, arrived) => {
        if (!types.includes(event.type)) return waiting.push(listen);
        clearTimeout(timer);
        resolve({ event, arrived });
      };
      waiting.push(listen);
    });
  // The first `advised` line: subscribed (the resident started by watch) and A's state known.
  await next(['advised'], 300_000);
  const own = readFileSync(join(b, file), 'utf8');
  const collide = colliding(a, file);
  const latencies = [];
  const logStart = readFileSync(log, 'utf8').length;
  for (let i = 0; i < edits; i++) {
    // Quiet first: the previous edit's re-scores are over.
    await sleep(2_000);
    const raise = i % 2 === 0;
    const line = next(raise ? ['raised', 'changed'] : ['cleared'], 120_000);
    const written = performance.now();
    writeFileSync(join(b, file), raise ? collide : own);
    const { arrived } = await line;
    latencies.push(arrived - written);
    console.error(`${name}: edit ${i + 1}/${edits}: ${Math.round(arrived - written)} ms`);
  }
  watch.kill('SIGINT');
  writeFileSync(join(b, file), own);
  const logged = [
    ...readFileSync(log, 'utf8')
      .slice(logStart)
      .matchAll(/re-scored \S+ in (\d+) ms(?: \((.*)\))?$/gm),
  ];
  const rescores = logged.map((m) => Number(m[1]));
  // Each line names the run's stages ("traffic 350, graph 120, …"): their medians say where the time goes.
  const stageMs = new Map();
  for (const m of logged)
    for (const part of (m[2] ?? '').split(', ').filter(Boolean)) {
      const [stage, ms] = part.split(' ');
      stageMs.set(stage, [...(stageMs.get(stage) ?? []), Number(ms)]);
    }
  const stages = [...stageMs].map(([stage, list]) => `${stage} ${Math.round(median(list))}`).join(', ');
  cli(a, ['resident', 'stop']);
  const sorted = [...latencies].sort((x, y) => x - y);
  return { name, median: median(latencies), p90: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.9) - 1)], rescore: median(rescores), stages };
}

const results = [];
if (!values['skip-express']) {
  const express = join(work, 'express');
  gitIn(work, ['clone', '-q', values.express, express]);
  const peer = join(work, 'express-peer');
  gitIn(express, ['worktree', 'add', '-q', '-b', 'peer', peer]);
  const file = 'lib/request.js';
  writeFileSync(join(express, file), readFileSync(join(express, file), 'utf8').replace('req.get =', '// main, uncommitted\nreq.get ='));
  cli(express, ['graph', 'build'], OFF);
  results.push(await measure('express + 1 worktree', express, peer, file));
}
if (!values['skip-generated']) {
  const size = { ...SIZES[values.size], worktrees: Number(values.worktrees), peers: Number(values.worktrees) };
  console.error(`generating the ${values.size} repository (${size.packages * size.areas * size.modules} modules, ${size.worktrees} worktrees)`);
  const generated = generateRepo(join(work, 'generated'), size);
  const [first, second] = generated.worktrees;
  console.error('building the import graph (untimed)');
  cli(first.dir, ['graph', 'build'], OFF);
  const file = gitIn(first.dir, ['diff', '--name-only']).split('\n')[0];
  results.push(await measure(`generated ${size.packages * size.areas * size.modules} files + ${size.worktrees} worktrees`, first.dir, second.dir, file));
}

const f = (ms) => `${Math.round(ms)} ms`;
const lines = [
  `# bench/resident-latency.mjs — ${new Date().toISOString()}`,
  '',
  `Node ${process.versions.node}, ${edits} edits per row, load average at the end ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')}.`,
  '',
  '| repository | edit → event, median | p90 | re-score (resident.log), median | its stages, median ms |',
  '|---|---:|---:|---:|---|',
  ...results.map((r) => `| ${r.name} | ${f(r.median)} | ${f(r.p90)} | ${f(r.rescore)} | ${r.stages} |`),
  '',
  'Target (issue 25): an edit in one worktree shows up as an advisory in the other worktree within 1 s.',
];
const text = `${lines.join('\n')}\n`;
process.stdout.write(text);
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'results', 'resident-latency.md'), text);
rmSync(work, { recursive: true, force: true });
