// Full import-graph builds of several builds of this project, interleaved round by round on one
// repository (issue 13 point 4: "original vs now vs yours, in the same run"). Each run deletes the
// repository's `.git/airspace/`, then times `airspace-hooks graph build` (foreground, not niced)
// under GNU time: CPU (user + sys) is the comparable number on a busy machine, wall clock is not.
// Each variant is a checkout of this project, built (`npx tsc -p tsconfig.build.json` is enough).
// The edges of every run are hashed: variants that read the same files must agree.
// Run: node bench/graph-build-compare.mjs --repo <git worktree> --rounds 2 \
//        --variant original=<checkout> --variant main=<checkout> --variant mine=<checkout> [--out <file.ndjson>]
//
// Edge agreement (issue 26, item 2), in this process, on this checkout's dist/ (`npm run build:js`):
//   node bench/graph-build-compare.mjs --agreement --repo <git worktree> [--repo …] [--out <file.ndjson>]
// reads every source file three ways and compares the edge sets with dependency-cruiser's:
//   cruiser  dependency-cruiser alone for every file (the reference; it needs a TypeScript: this
//            project's own, resolved from its node_modules);
//   build    what `graph build` does when a TypeScript is there (direct read + the one resolver,
//            dependency-cruiser for the rest);
//   oxc      what it does without one: oxc and the one resolver for every file, no dependency-cruiser.
// CPU is process.cpuUsage() around each read (user + sys, this process only).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: opts } = parseArgs({
  options: {
    repo: { type: 'string', multiple: true },
    rounds: { type: 'string' },
    variant: { type: 'string', multiple: true },
    out: { type: 'string' },
    agreement: { type: 'boolean', default: false },
  },
});
if (opts.agreement) {
  if (!opts.repo?.length) {
    process.stderr.write('usage: node bench/graph-build-compare.mjs --agreement --repo <dir> [--repo <dir> …]\n');
    process.exit(2);
  }
  for (const dir of opts.repo) {
    const row = await agreement(dir);
    process.stdout.write(`${JSON.stringify(row)}\n`);
    if (opts.out) appendFileSync(opts.out, `${JSON.stringify(row)}\n`);
  }
  process.exit(0);
}
if (!opts.repo || !opts.variant?.length || !/^\d+$/.test(opts.rounds ?? '1')) {
  process.stderr.write('usage: node bench/graph-build-compare.mjs --repo <dir> --rounds <n> --variant <name>=<checkout> ...\n');
  process.exit(2);
}
const repo = opts.repo[0];
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

/** Edges of one repository read three ways, compared with dependency-cruiser's. */
async function agreement(dir) {
  const here = join(import.meta.dirname, '..', 'dist', 'graph');
  const [{ cruiseInBatches }, { listRepoFiles }, { openDirectReader }, { findRootTsconfig }, { toImportGraph }] = await Promise.all([
    import(join(here, 'cruise-in-batches.js')),
    import(join(here, 'list-repo-files.js')),
    import(join(here, 'read-imports-directly.js')),
    import(join(here, 'find-root-tsconfig.js')),
    import(join(here, 'adjacency.js')),
  ]);
  const repoFiles = await listRepoFiles(dir);
  const files = [...repoFiles.sources.keys()].sort();
  const layoutFiles = [...repoFiles.configs.keys()];
  const tsconfig = findRootTsconfig(dir);
  const timed = async (read) => {
    const before = process.cpuUsage();
    const records = await read();
    const used = process.cpuUsage(before);
    return { records, cpuS: +((used.user + used.system) / 1e6).toFixed(2) };
  };
  const cruiser = await timed(async () => (await cruiseInBatches(dir, files, { tsconfig, now: Date.now, direct: false })).cruised);
  const build = await timed(async () => (await cruiseInBatches(dir, files, { tsconfig, layoutFiles, now: Date.now, typescriptAvailable: true })).cruised);
  const oxc = await timed(async () => (await openDirectReader(dir, { complete: true, layoutFiles })).read(files).records);
  const edgesOf = (records) => {
    const set = new Set();
    for (const [from, targets] of Object.entries(toImportGraph(records, repoFiles.sources).adjacency)) for (const to of targets) set.add(`${from} -> ${to}`);
    return set;
  };
  const reference = edgesOf(cruiser.records);
  const compare = (name, run) => {
    const edges = edgesOf(run.records);
    const shared = [...edges].filter((edge) => reference.has(edge)).length;
    const extra = [...edges].filter((edge) => !reference.has(edge));
    const missing = [...reference].filter((edge) => !edges.has(edge));
    return {
      [`${name}Edges`]: edges.size,
      [`${name}CpuS`]: run.cpuS,
      [`${name}Shared`]: shared,
      [`${name}OnlyHere`]: extra.length,
      [`${name}OnlyCruiser`]: missing.length,
      [`${name}SampleOnlyHere`]: extra.slice(0, 3),
      [`${name}SampleOnlyCruiser`]: missing.slice(0, 3),
    };
  };
  return {
    repo: dir,
    files: files.length,
    nodeModules: existsSync(join(dir, 'node_modules')),
    cruiserEdges: reference.size,
    cruiserCpuS: cruiser.cpuS,
    ...compare('build', build),
    ...compare('oxc', oxc),
    load1: +loadavg()[0].toFixed(1),
  };
}
