// Engine benchmark (issue 2): 100 agents × 50 files on a generated 20,000-file import graph.
// Times scanAirspace and, in the same run and on the same input, the seed's naive algorithm for
// the dependency channel (one bounded BFS per file pair). The naive one would take hours, so it
// is timed on a deterministic sample of file pairs and extrapolated (the output says so).
// Run: npm run bench:engine (builds first). Writes bench/results/engine.md.
import { writeFileSync, mkdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULTS, couplingTable, scanAirspace } from '../dist/index.js';
import { rng } from './lib/rng.mjs';

const FILES = 20_000;
const AGENTS = 100;
const FILES_PER_AGENT = 50;
const NAIVE_SAMPLE = Number(process.env.NAIVE_SAMPLE ?? 300);
const NOW = Date.UTC(2026, 0, 15);
const HOUR = 3_600_000;

const random = rng(2026);
const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
const pick = (items) => items[Math.floor(random() * items.length)];

/** A monorepo-like tree: packages/<p>/src/<area>/<sub>/file.ts, ~20 files per leaf directory. */
function generateGraph() {
  const dirs = [];
  for (let p = 0; p < 10; p++) for (let a = 0; a < 10; a++) for (let s = 0; s < 10; s++) dirs.push(`packages/p${p}/src/a${a}/s${s}`);
  const files = [];
  const byDir = new Map();
  for (let i = 0; i < FILES; i++) {
    const dir = dirs[i % dirs.length];
    const file = `${dir}/f${i}.ts`;
    files.push(file);
    if (!byDir.has(dir)) byDir.set(dir, []);
    byDir.get(dir).push(file);
  }
  const hubs = Array.from({ length: 10 }, (_, p) => `packages/p${p}/src/index.ts`).concat(['shared/utils.ts', 'shared/types.ts']);
  /** @type {Record<string, string[]>} */
  const adjacency = {};
  for (const file of files) {
    const dir = file.slice(0, file.lastIndexOf('/'));
    const [, pkg, , area] = dir.split('/');
    const imports = new Set();
    for (let k = int(2, 5); k > 0; k--) {
      const roll = random();
      if (roll < 0.6) imports.add(pick(byDir.get(dir)));
      else if (roll < 0.85) imports.add(pick(byDir.get(`packages/${pkg}/src/${area}/s${int(0, 9)}`)));
      else if (roll < 0.95) imports.add(pick(byDir.get(pick(dirs))));
      else imports.add(pick(hubs));
    }
    imports.delete(file);
    adjacency[file] = [...imports];
  }
  for (const hub of hubs) adjacency[hub] = [pick(files), pick(files)];
  return { files, byDir, dirs, graph: { adjacency } };
}

/** Agents that each work around one or two home directories, with ranges and recency. */
/** @returns {import('../dist/index.js').Agent[]} */
function generateAgents({ byDir, dirs, files }) {
  return Array.from({ length: AGENTS }, (_, index) => {
    const homes = [pick(dirs), pick(dirs)];
    const chosen = new Set();
    while (chosen.size < FILES_PER_AGENT) {
      const roll = random();
      const dir = roll < 0.7 ? homes[0] : roll < 0.9 ? homes[1] : null;
      chosen.add(dir ? pick(byDir.get(dir)) : pick(files));
    }
    return {
      id: `agent-${String(index).padStart(3, '0')}`,
      files: [...chosen].map((path) => {
        const start = int(1, 800);
        return random() < 0.05 ? { path } : { path, ranges: [[start, start + int(0, 40)]], lastEditedAt: NOW - int(0, 96) * HOUR };
      }),
      committedWork: int(0, 5),
      startedAt: NOW - int(1, 30) * 24 * HOUR,
    };
  });
}

function undirected(graph) {
  const map = new Map();
  const add = (x, y) => {
    if (!map.has(x)) map.set(x, []);
    if (x !== y) map.get(x).push(y);
  };
  for (const [file, imports] of Object.entries(graph.adjacency)) {
    add(file, file);
    for (const target of imports) {
      add(file, target);
      add(target, file);
    }
  }
  return map;
}

/** The naive reference: one bounded BFS from f until g is found (or maxDepth is exhausted). */
function bfsDistance(neighbours, from, to, maxDepth) {
  if (!neighbours.has(from) || !neighbours.has(to)) return Infinity;
  let frontier = [from];
  const seen = new Set([from]);
  for (let depth = 1; depth <= maxDepth; depth++) {
    const next = [];
    for (const node of frontier) {
      for (const n of neighbours.get(node)) {
        if (n === to) return depth;
        if (!seen.has(n)) {
          seen.add(n);
          next.push(n);
        }
      }
    }
    frontier = next;
  }
  return Infinity;
}

const weightOf = (file) =>
  file.lastEditedAt === undefined ? 1 : DEFAULTS.recencyFloor + (1 - DEFAULTS.recencyFloor) * 2 ** (-(NOW - file.lastEditedAt) / DEFAULTS.halfLifeMs);

/** Bounded BFS distances from one file (for the agreement check; not the timed naive run). */
function distancesFrom(neighbours, from, maxDepth) {
  const dist = new Map([[from, 0]]);
  let frontier = neighbours.has(from) ? [from] : [];
  for (let depth = 1; depth <= maxDepth && frontier.length > 0; depth++) {
    const next = [];
    for (const node of frontier)
      for (const n of neighbours.get(node))
        if (!dist.has(n)) {
          dist.set(n, depth);
          next.push(n);
        }
    frontier = next;
  }
  return dist;
}

/** Reference r_dep for a pair (one BFS per file of a), with the engine's symmetric cut-off rule. */
function referencePairCoupling(neighbours, a, b, table) {
  let best = 0;
  for (const f of a.files) {
    const dist = distancesFrom(neighbours, f.path, DEFAULTS.maxDepth);
    for (const g of b.files) {
      const d = dist.get(g.path);
      if (f.path === g.path || d === undefined || d === 0) continue;
      const [wf, wg] = [weightOf(f), weightOf(g)];
      if (Math.max(wf, wg) * table[d - 1] >= DEFAULTS.couplingCutoff) best = Math.max(best, wf * table[d - 1] * wg);
    }
  }
  return best;
}

const fmt = (ms) => (ms >= 60_000 ? `${(ms / 60_000).toFixed(1)} min` : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);

const world = generateGraph();
const agents = generateAgents(world);
const edges = Object.values(world.graph.adjacency).reduce((sum, list) => sum + list.length, 0);
const options = { now: NOW };

// Warm-up on a copy of the graph object (the undirected index is cached per graph object, so the
// timed run below builds its own index: the time includes it).
scanAirspace(agents.slice(0, 10), { adjacency: { ...world.graph.adjacency } }, options);
const runs = [];
const cpuRuns = [];
let result;
for (let run = 0; run < 3; run++) {
  const graph = { adjacency: world.graph.adjacency };
  const start = performance.now();
  const cpu = process.cpuUsage();
  result = scanAirspace(agents, graph, options);
  runs.push(performance.now() - start);
  const used = process.cpuUsage(cpu);
  cpuRuns.push((used.user + used.system) / 1000);
}
const scanMs = Math.min(...runs);
const medianMs = [...runs].sort((x, y) => x - y)[1];

// Naive: a BFS per file pair on a deterministic sample of (agent pair, f, g), extrapolated.
const neighbours = undirected(world.graph);
const table = couplingTable(DEFAULTS.gamma, DEFAULTS.maxDepth);
const sample = rng(7);
const pairsTotal = (AGENTS * (AGENTS - 1)) / 2;
let filePairsTotal = 0;
for (let i = 0; i < AGENTS; i++) for (let j = i + 1; j < AGENTS; j++) filePairsTotal += agents[i].files.length * agents[j].files.length;
const naiveStart = performance.now();
let found = 0;
for (let k = 0; k < NAIVE_SAMPLE; k++) {
  const a = agents[Math.floor(sample() * AGENTS)];
  const b = agents[Math.floor(sample() * AGENTS)];
  const f = a.files[Math.floor(sample() * a.files.length)];
  const g = b.files[Math.floor(sample() * b.files.length)];
  if (bfsDistance(neighbours, f.path, g.path, DEFAULTS.maxDepth) !== Infinity) found++;
}
const naiveSampleMs = performance.now() - naiveStart;
const naiveMs = (naiveSampleMs / NAIVE_SAMPLE) * filePairsTotal;

// Agreement: a BFS reference on a few full agent pairs equals the engine's dependency channel.
const byId = new Map(result.links.map((link) => [`${link.a}|${link.b}`, link]));
const checks = [
  [0, 1],
  [2, 3],
  [10, 42],
].map(([i, j]) => {
  const expected = referencePairCoupling(neighbours, agents[i], agents[j], table);
  const got = byId.get(`${agents[i].id}|${agents[j].id}`).channels.dependency;
  return Math.abs(expected - got) < 1e-12;
});

const ratio = naiveMs / scanMs;
const rows = [
  ['input', `${AGENTS} agents × ${FILES_PER_AGENT} files, ${world.files.length.toLocaleString('en')}-file graph, ${edges.toLocaleString('en')} import edges`],
  [
    'scanAirspace (full scan: all channels, advisories, embedding; best of 3)',
    `${fmt(scanMs)} wall (median ${fmt(medianMs)}; CPU ${fmt(Math.min(...cpuRuns))}; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`,
  ],
  ['pairs / advisories', `${pairsTotal} pairs: ${result.counts.TA} TA, ${result.counts.RA} RA`],
  [
    `naive dependency channel (BFS per file pair; ${NAIVE_SAMPLE} sampled of ${filePairsTotal.toLocaleString('en')} file pairs, extrapolated)`,
    `${fmt(naiveMs)} (sample: ${fmt(naiveSampleMs)}, ${found} reachable within depth ${DEFAULTS.maxDepth})`,
  ],
  ['speed-up (naive / scanAirspace)', `${Math.round(ratio).toLocaleString('en')}×`],
  ['engine = BFS reference on 3 full agent pairs (dependency channel)', checks.every(Boolean) ? 'yes' : `NO (${checks})`],
  ['targets', `full scan < 1 s: ${scanMs < 1000 ? 'met' : 'MISSED'}; ≥ 100× naive: ${ratio >= 100 ? 'met' : 'MISSED'}`],
  ['machine', `${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores), Node ${process.version}`],
];
const table_ = ['| measure | value |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join('\n');
const here = dirname(fileURLToPath(import.meta.url));
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'engine.md'), `# Engine benchmark\n\nGenerated by \`npm run bench:engine\` (bench/engine.mjs).\n\n${table_}\n`);
process.stdout.write(`${table_}\n`);
