#!/usr/bin/env node
/**
 * The evidence the hook would have seen, for every scenario and moment of the merge-scenario data:
 * `git merge-tree --write-tree` of the two sides' states at that moment (the snapshot prefixes; the
 * parents for the final state), run by the product's own `mergeTreeChannel` in the repositories'
 * real histories. The dataset stores no source, so this is the only way to score the blocking rule
 * (docs/decisions/blocking-rule.md) on it.
 *
 *   npm run build && node bench/accuracy-evidence.mjs [--data <dir>] [--mirrors <dir>]
 *
 * Mirrors: `<mirrors>/<owner>+<name>/repo` (bare, read-only). merge-tree writes objects, so each
 * runs in a throw-away bare clone that borrows the mirror's objects (`clone --shared`): nothing is
 * written to the mirror. Output: bench/data/merge-evidence.dev.jsonl, one line per scenario,
 * `{repo, merge, moments: {<moment>: [conflicted paths] | null}}` — [] clean, null unknown; a
 * moment with an empty side has no entry (there is nothing to merge). Paths are NOT filtered by
 * the ignore globs here; the benchmark applies the config's globs itself.
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return resolve(at >= 0 && args[at + 1] ? args[at + 1] : fallback);
};
const dataDir = option('--data', join(repoRoot, '..', 'shared', 'data', 'merge-scenarios'));
const mirrors = option('--mirrors', '/work/.mirror');
const target = join(repoRoot, 'bench', 'data', 'merge-evidence.dev.jsonl');
const { mergeTreeChannel } = await import(join(repoRoot, 'dist', 'git', 'merge-tree-channel.js'));

async function* jsonLines(path) {
  for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) if (line.trim()) yield JSON.parse(line);
}

const scenarios = new Map();
for await (const s of jsonLines(join(dataDir, 'dev.jsonl'))) scenarios.set(s.merge, { repo: s.repo, merge: s.merge, pairs: { final: [s.p1, s.p2] } });
for await (const p of jsonLines(join(dataDir, 'dev.prefix.jsonl'))) {
  const entry = scenarios.get(p.merge);
  for (const [axis, prefix] of [
    ['overlapSnapshots', 'both'],
    ['snapshots', 'life'],
  ]) {
    for (const [fraction, snap] of Object.entries(p[axis] ?? {})) {
      if (snap.sideA.prefix && snap.sideB.prefix) entry.pairs[`${prefix}-${fraction}`] = [snap.sideA.prefix, snap.sideB.prefix];
    }
  }
}

const work = mkdtempSync(join(tmpdir(), 'airspace-evidence-'));
const clones = new Map();
function cloneOf(repo) {
  if (!clones.has(repo)) {
    const mirror = join(mirrors, repo.replace('/', '+'), 'repo');
    if (!existsSync(mirror)) throw new Error(`accuracy-evidence: no mirror of ${repo} at ${mirror}`);
    const dir = join(work, repo.replace('/', '+'));
    execFileSync('git', ['clone', '--quiet', '--bare', '--shared', '--no-tags', mirror, dir], { stdio: 'ignore' });
    clones.set(repo, dir);
  }
  return clones.get(repo);
}

const memo = new Map();
const out = [];
let runs = 0;
let unknown = 0;
const started = performance.now();
try {
  for (const entry of scenarios.values()) {
    const cwd = cloneOf(entry.repo);
    const moments = {};
    for (const [moment, [a, b]] of Object.entries(entry.pairs)) {
      const key = `${entry.repo} ${a} ${b}`;
      if (!memo.has(key)) {
        runs += 1;
        const result = await mergeTreeChannel(cwd, a, b, { timeoutMs: 60_000 });
        if (result.value === null) unknown += 1;
        memo.set(key, result.value === null ? null : [...result.conflictedPaths].sort());
      }
      moments[moment] = memo.get(key);
    }
    out.push(JSON.stringify({ repo: entry.repo, merge: entry.merge, moments }));
    if (out.length % 100 === 0) console.error(`  ${out.length} / ${scenarios.size} scenarios, ${runs} merges`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, `${out.join('\n')}\n`);
console.log(`wrote ${target}: ${out.length} scenarios, ${runs} merge-tree runs (${unknown} unknown), ${((performance.now() - started) / 1000).toFixed(0)} s`);
