#!/usr/bin/env node
/**
 * Accuracy benchmark: does the collision risk predict real merge conflicts, early?
 *   npm run bench:accuracy                 full run + calibration → bench/results/accuracy.md
 *   node bench/accuracy.mjs --smoke        small sample, small grid (CI, < 30 s) → accuracy-smoke.md
 *   node bench/accuracy.mjs --data <dir>   dataset folder (default <repo>/../shared/data/merge-scenarios)
 *   node bench/accuracy.mjs --keep-ignored keep the config's ignored files in the working sets (the seed's benchmark)
 * The merge channel (evidence) comes from bench/data/merge-evidence.dev.jsonl (bench/accuracy-evidence.mjs).
 * Runs the BUILT package (dist/), so it scores exactly what users install; the bench's own modules
 * (bench/src/, not shipped) are built into bench/build/ by scripts/build-bench.mjs and import dist/.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const noCalibrate = args.includes('--no-calibrate');
const keepIgnored = args.includes('--keep-ignored');
const dataAt = args.indexOf('--data');
const dataDir = resolve(dataAt >= 0 && args[dataAt + 1] ? args[dataAt + 1] : join(repoRoot, '..', 'shared', 'data', 'merge-scenarios'));

if (!existsSync(join(dataDir, 'dev.jsonl'))) {
  console.error(`bench:accuracy: merge-scenario data not found at ${dataDir} (pass --data <dir>)`);
  process.exit(2);
}
if (!existsSync(join(repoRoot, 'dist', 'index.js')) || !existsSync(join(repoRoot, 'bench', 'build', 'accuracy-bench.js'))) {
  console.error('bench:accuracy: dist/ or bench/build/ is missing — run `npm run bench:accuracy`, which builds both');
  process.exit(2);
}

const engine = await import(join(repoRoot, 'dist', 'index.js'));
const { benchAccuracy } = await import(join(repoRoot, 'bench', 'build', 'accuracy-bench.js'));
const { loadMergeEvidence } = await import(join(repoRoot, 'bench', 'build', 'merge-evidence.js'));
// Made by bench/accuracy-evidence.mjs (needs the repositories' histories); without it, risk rule only.
const evidence = loadMergeEvidence(join(repoRoot, 'bench', 'data', 'merge-evidence.dev.jsonl'));
const command = `node bench/accuracy.mjs${smoke ? ' --smoke' : ''}${noCalibrate ? ' --no-calibrate' : ''}${keepIgnored ? ' --keep-ignored' : ''}`;
const out = await benchAccuracy({ scanAirspace: engine.scanAirspace, advise: engine.advise }, engine.DEFAULTS, {
  dataDir,
  smoke,
  calibrate: !noCalibrate,
  command,
  clock: () => performance.now(),
  evidence,
  keepIgnored,
});
const target = join(repoRoot, 'bench', 'results', smoke ? 'accuracy-smoke.md' : 'accuracy.md');
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, `${out.markdown}\n`);
console.log(`accuracy (${smoke ? 'smoke' : 'full'}): ${out.cases.length} cases; both-active f = 0.5:`);
for (const line of out.summary) console.log(`  ${line}`);
console.log(`wrote ${target}`);
