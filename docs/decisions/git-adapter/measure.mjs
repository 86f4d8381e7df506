// Per-call overhead of git through airspace-hooks' adapter vs simple-git vs a bare spawn.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
const WT = process.argv[2];
const { runGit } = await import(join(WT, 'dist/git/exec-git.js'));
const { simpleGit } = await import('simple-git');
const N = Number(process.argv[3] ?? 60);

const repo = mkdtempSync(join(tmpdir(), 'sg-'));
const g = (...a) => execFileSync('git', a, { cwd: repo, encoding: 'utf8' });
g('init', '-q', '-b', 'main'); writeFileSync(join(repo, 'a.txt'), 'a\n'); g('add', '.'); g('-c', 'user.email=x@y', '-c', 'user.name=x', 'commit', '-qm', 'init');

const bare = (args) => new Promise((res, rej) => { const c = spawn('git', args, { cwd: repo }); let o = ''; c.stdout.on('data', (d) => (o += d)); c.on('close', (code) => (code === 0 ? res(o) : rej(new Error(String(code))))); });
const ours = (args) => runGit(args, { cwd: repo });
const sg = simpleGit({ baseDir: repo });
const viaSimpleGit = (args) => sg.raw(args);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function bench(name, fn, args) {
  for (let i = 0; i < 5; i++) await fn(args);
  const t = [];
  for (let i = 0; i < N; i++) { const s = performance.now(); await fn(args); t.push(performance.now() - s); }
  return { name, args: args.join(' '), median: median(t), p90: [...t].sort((a, b) => a - b)[Math.floor(t.length * 0.9)] };
}
// Interleave the three so machine load hits all alike.
const rows = [];
for (const args of [['rev-parse', 'HEAD'], ['status', '--porcelain', '-z']]) {
  for (let round = 0; round < 3; round++) {
    rows.push(await bench('bare spawn', bare, args));
    rows.push(await bench('runGit (ours)', ours, args));
    rows.push(await bench('simple-git raw', viaSimpleGit, args));
  }
}
const by = new Map();
for (const r of rows) { const k = `${r.args} | ${r.name}`; by.set(k, [...(by.get(k) ?? []), r.median]); }
for (const [k, v] of by) console.log(`${k} | median of 3 rounds x ${N} calls: ${median(v).toFixed(2)} ms (rounds ${v.map((x) => x.toFixed(2)).join(', ')})`);
