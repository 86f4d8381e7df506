// Full import-graph builds of several builds of this project, interleaved round by round on one
// repository (issue 13 point 4: "original vs now vs yours, in the same run"). Each run deletes the
// repository's `.git/airspace/`, then times `airspace-hooks graph build` (foreground, not niced)
// under GNU time: CPU (user + sys) is the comparable number on a busy machine, wall clock is not.
// Each variant is a checkout of this project, built (`npx tsc -p tsconfig.build.json` is enough).
// The edges of every run are hashed: variants that read the same files must agree.
// Run: node bench/graph-build-compare.mjs --repo <git worktree> --rounds 2 \
//        --variant original=<checkout> --variant main=<checkout> --variant mine=<checkout> [--out <file.ndjson>]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: opts } = parseArgs({
  options: { repo: { type: 'string' }, rounds: { type: 'string' }, variant: { type: 'string', multiple: true }, out: { type: 'string' } },
});
if (!opts.repo || !opts.variant?.length || !/^\d+$/.test(opts.rounds ?? '1')) {
  process.stderr.write('usage: node bench/graph-build-compare.mjs --repo <dir> --rounds <n> --variant <name>=<checkout> ...\n');
  process.exit(2);
}
const repo = opts.repo;
const variants = opts.variant.map((spec) => {
  const at = spec.indexOf('=');
  return { name: spec.slice(0, at), dir: spec.slice(at + 1) };
});
const first = variants[0];
const { readGraphCache } = await import(join(first.dir, 'dist', 'graph', 'graph-cache.js'));

/** `h:mm:ss` or `m:ss.cc` → seconds. */
const seconds = (text) => text.split(':').reduce((total, part) => total * 60 + Number(part), 0);
const rows = [];
for (let round = 0; round < Number(opts.rounds ?? '1'); round++) {
  for (const variant of variants) {
    rmSync(join(repo, '.git', 'airspace'), { recursive: true, force: true });
    const load1 = loadavg()[0];
    const run = spawnSync('/usr/bin/time', ['-v', process.execPath, join(variant.dir, 'bin', 'airspace-hooks.js'), 'graph', 'build'], {
      cwd: repo,
      encoding: 'utf8',
    });
    const field = (label) => new RegExp(`${label}: ([\\d.:]+)`).exec(run.stderr)?.[1] ?? '';
    const files = [...readGraphCache(join(repo, '.git')).files].sort(([a], [b]) => (a < b ? -1 : 1));
    const edges = files.reduce((total, [, record]) => total + record.imports.length, 0);
    const hash = createHash('sha1')
      .update(JSON.stringify(files.map(([path, record]) => [path, record.imports, record.unresolved])))
      .digest('hex')
      .slice(0, 12);
    const user = Number(field('User time \\(seconds\\)'));
    const sys = Number(field('System time \\(seconds\\)'));
    const row = {
      round,
      variant: variant.name,
      exit: run.status,
      cpuS: +(user + sys).toFixed(2),
      userS: user,
      sysS: sys,
      wallS: seconds(field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)')),
      maxRssMB: Math.round(Number(field('Maximum resident set size \\(kbytes\\)')) / 1024),
      files: files.length,
      edges,
      hash,
      load1: +load1.toFixed(1),
    };
    rows.push(row);
    process.stderr.write(`${JSON.stringify(row)}\n`);
    if (opts.out) appendFileSync(opts.out, `${JSON.stringify(row)}\n`);
  }
}
const hashes = new Set(rows.map((row) => row.hash));
process.stdout.write(`${hashes.size === 1 ? 'same edges in every run' : `EDGES DIFFER between runs: ${[...hashes].join(', ')}`}\n`);
