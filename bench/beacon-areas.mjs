// Beacons at organisation scale, on the real git protocol (issue 27, docs/decisions/beacon-areas.md).
// A local `git daemon` serves two bare remotes holding the same N agents' beacons over Zipf-distributed
// code areas: `today.git` under the legacy refs only (refs/airspace/beacons/<clone>/<agent>, what every
// earlier release publishes and reads), `areas.git` under the area refs only (beacons.legacyRefs "off",
// after the migration window). A byte-counting TCP relay sits between the clients and the daemon. For
// several pushing agents drawn from the same distribution, each design runs its beacon part of the
// check — src/git/fetch-beacons.ts then src/beacon/read-beacons.ts, as a pre-push does — in a fresh
// clone (cold) and once more with nothing changed (warm), and the bench prints refs listed, refs and
// bytes fetched, beacons read, how many of the agents sharing an area with the pusher were read, and the
// wall time. Finally the whole `check --fetch` of the CLI runs against areas.git for the median pusher.
// A second table measures the reader that also lists the areas of its import-graph neighbours (each build;
// this one fetches them within the read bound, src/git/fetch-beacons.ts `nearby`)
// (src/run/dependency-areas.ts) on two synthetic import graphs over the same files, side by side with
// the areas of its own work only, on the same remote: areas listed, how often the reach spans more than
// 64 areas (then everything is listed), refs and bytes fetched, beacons read, how many of the agents
// coupled to the pusher through the dependency channel were read, and the time of the listing itself.
//
// Run: npm run build:js && node bench/beacon-areas.mjs [--agents 1000,10000] [--pushes 7] [--checks 3]
//        [--designs today,areas] [--baseline DIR [--baseline-nearby]] [--work] [--keep] [--rtt MS] [--out FILE]
// --baseline DIR: another build of this package (a directory holding its bin/ and dist/, e.g. a
// `git worktree` of main after `npm ci && npm run build:js`): its beacon part and its `check --fetch` run
// beside this build's, alternating, in the same run. --baseline-nearby: the baseline gets the own and
// the dependency areas apart too, as this build does (a build that has `BeaconSelection`), instead of
// one list read whole (the design before it). --checks: each `check --fetch` row is the median
// of this many runs, each in a fresh clone (cold), then once more with nothing changed (warm).
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rng } from './lib/rng.mjs';

// The git layer's built modules, imported by a computed specifier: typecheck:bench type-checks every
// JavaScript file a literal import reaches, and dist/ is transpiled output, not source to check.
const dist = (path) => import(new URL(`../dist/${path}`, import.meta.url).href);
const { areaKey, areaOf, areaPrefixes, MAX_AREAS } = await dist('beacon/beacon-areas.js');
const { readBeacons } = await dist('beacon/read-beacons.js');
const { fetchBeacons } = await dist('git/fetch-beacons.js');
const { writeGraphCache } = await dist('graph/graph-cache.js');
const { dependencyPaths } = await dist('run/dependency-areas.js');

const ROOT = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const AGENT_COUNTS = option('agents', '1000,10000').split(',').map(Number);
const PUSHES = Number(option('pushes', '7'));
const OUT = option('out', null);
const CHECKS = Number(option('checks', '3'));
const DESIGNS = option('designs', 'today,areas').split(',');
const BASELINE = option('baseline', null);
const BASELINE_NEARBY = args.includes('--baseline-nearby');
// --work: each beacon commit has its agent's work as its parent (a snapshot commit on the trunk with
// its files edited at its ranges), as src/beacon/publish-beacon.ts publishes them: the check then runs
// the merge channel on every beacon pair. Without it the beacons are parentless (no git states).
const WORK = args.includes('--work');
const KEEP = args.includes('--keep');
// --rtt MS: the relay adds this round-trip time (half each way) to every exchange with the daemon.
const RTT_MS = Number(option('rtt', '0'));
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
const CPU_MARK = 'airspace-bench-cpu ';
// The builds compared: this one, and the baseline's when given (its modules for the beacon part, its bin for the check).
const builds = [{ label: 'this build', bin: join(ROOT, 'bin', 'airspace-hooks.js'), fetchBeacons, readBeacons }];
if (BASELINE) {
  const from = (path) => import(pathToFileURL(join(BASELINE, 'dist', path)).href);
  const [fetchModule, readModule] = await Promise.all([from('git/fetch-beacons.js'), from('beacon/read-beacons.js')]);
  builds.unshift({
    label: 'baseline',
    bin: join(BASELINE, 'bin', 'airspace-hooks.js'),
    fetchBeacons: fetchModule.fetchBeacons,
    readBeacons: readModule.readBeacons,
  });
}
// One area per five agents on average (a team of a few agents per package), four files in each.
const AGENTS_PER_AREA = 5;
const FILES_PER_AREA = 4;
const ZIPF_S = 1.0;
const MAX_BYTES = 256 * 1024;
const GRAPH_SHAPES = ['local', 'zipf'];

// No resident process: a check would start one, and it would compete with the next measurement.
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', AIRSPACE_GRAPH_BACKGROUND: 'off', AIRSPACE_RESIDENT: 'off', NO_COLOR: '1' };
for (const key of Object.keys(env)) if (key.startsWith('GIT_') && !['GIT_CONFIG_NOSYSTEM', 'GIT_TERMINAL_PROMPT'].includes(key)) delete env[key];
const git = (cwd, gitArgs, input) => execFileSync('git', gitArgs, { cwd, env, input, encoding: 'utf8', maxBuffer: 1 << 30 }).trim();
// Anything that talks to the daemon runs asynchronously: the byte-counting relay lives in this process.
const run = (command, commandArgs, cwd, extraEnv = {}) =>
  new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { cwd, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
const clone = async (cwd, cloneArgs) => {
  const result = await run('git', ['clone', '-q', ...cloneArgs], cwd);
  if (result.status !== 0) throw new Error(`git clone: ${result.stderr}`);
};

/** Sampler of area ranks 0..n-1 with P(k) ∝ 1/(k+1)^s. */
function zipf(n, s, random) {
  const weights = Array.from({ length: n }, (_, k) => 1 / (k + 1) ** s);
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative = [];
  let sum = 0;
  for (const w of weights) {
    sum += w / total;
    cumulative.push(sum);
  }
  return () => {
    const u = random();
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const fileOf = (area, j) => `p${area}/src/f${j}.ts`;

/** N agents: each touches 1–3 areas (60/30/10 %), 1–3 files in each, a few line ranges per file. */
function makeAgents(count, areas, seed) {
  const random = rng(seed);
  const pick = zipf(areas, ZIPF_S, random);
  const agents = [];
  for (let i = 0; i < count; i++) {
    const u = random();
    const k = u < 0.6 ? 1 : u < 0.9 ? 2 : 3;
    const touched = new Set();
    while (touched.size < k) touched.add(pick());
    const files = [];
    for (const area of touched) {
      const n = 1 + Math.floor(random() * 3);
      for (let j = 0; j < n; j++) files.push(fileOf(area, Math.floor(random() * FILES_PER_AREA)));
    }
    agents.push({ clone: i.toString(16).padStart(10, '0'), agent: `agent-${i}`, files: [...new Set(files)], random });
  }
  return agents;
}

/**
 * A synthetic import graph over the areas' files: each file imports the next file of its own area,
 * and one file in three also imports a file of another area, drawn by `shape`:
 * - `zipf`: Zipf s = 1 over all areas — shared libraries that much of the code imports (hubs);
 * - `local`: one of the 5 areas on either side — packages that use their neighbours, no hub.
 */
function makeGraph(areas, shape, seed) {
  const random = rng(seed);
  const pick = zipf(areas, ZIPF_S, random);
  const files = new Map();
  for (let a = 0; a < areas; a++) {
    for (let j = 0; j < FILES_PER_AREA; j++) {
      const imports = [fileOf(a, (j + 1) % FILES_PER_AREA)];
      if (random() < 1 / 3) {
        let other = shape === 'zipf' ? pick() : a + Math.round((random() - 0.5) * 10);
        other = Math.min(areas - 1, Math.max(0, other));
        if (other !== a) imports.push(fileOf(other, Math.floor(random() * FILES_PER_AREA)));
      }
      files.set(fileOf(a, j), { blob: '', imports, unresolved: [] });
    }
  }
  return files;
}

function beaconJson(agent, base, seconds) {
  const files = agent.files.map((file) => {
    const start = 1 + Math.floor(agent.random() * 180);
    return { file, status: 'M', ranges: [[start, start + 1 + Math.floor(agent.random() * 12)]], origin: 'uncommitted', lastEditTime: seconds * 1000 - 60_000 };
  });
  return JSON.stringify({
    schema: 1,
    agent: agent.agent,
    branch: agent.agent,
    head: base,
    base,
    workingSet: { base, files },
    intent: [],
    committedWork: 0,
    startedAt: null,
    updatedAt: seconds * 1000,
    clone: { id: agent.clone, machine: `host-${agent.clone.slice(-3)}` },
    note: 'working on the feature described in the ticket; ping me before touching these files',
  });
}

/** The seed (every area's files) and the beacons, by one `git fast-import` per remote. */
function buildRemotes(srv, agents, areas) {
  const seedLines = [];
  const line = Array.from({ length: 200 }, (_, i) => `export const v${i} = ${i};`).join('\n');
  seedLines.push('commit refs/heads/main\ncommitter seed <seed@bench.invalid> 1700000000 +0000\ndata 4\nseed');
  for (let a = 0; a < areas; a++)
    for (let j = 0; j < FILES_PER_AREA; j++) seedLines.push(`M 100644 inline ${fileOf(a, j)}\ndata ${Buffer.byteLength(line)}\n${line}`);
  const seed = `${seedLines.join('\n')}\n\n`;
  const now = Math.floor(Date.now() / 1000);
  const results = {};
  for (const design of ['today', 'areas']) {
    const repo = join(srv, `${design}-${agents.length}.git`);
    git(srv, ['init', '-q', '--bare', repo]);
    git(repo, ['config', 'uploadpack.allowFilter', 'true']);
    git(repo, ['fast-import', '--quiet'], seed);
    const base = git(repo, ['rev-parse', 'refs/heads/main']);
    git(repo, ['symbolic-ref', 'HEAD', 'refs/heads/main']);
    const chunks = [];
    agents.forEach((agent, i) => {
      agent.random = rng(1000 + i);
      const seconds = now - 3600 + Math.floor((i * 3600) / agents.length);
      const json = beaconJson(agent, base, seconds);
      const component = `${agent.clone}/${agent.agent}`;
      const refs =
        design === 'today'
          ? [`refs/airspace/beacons/${component}`]
          : [...new Set(agent.files.map(areaOf))].map((area) => `refs/airspace/areas/${areaKey(area)}/${component}`);
      let parent = '';
      if (WORK) {
        // The edited files of the beacon's working set, one line changed per range.
        const edits = JSON.parse(json).workingSet.files.map(({ file, ranges }) => {
          const text = line
            .split('\n')
            .map((l, n) => (ranges.some(([from]) => from === n + 1) ? `${l} // ${agent.agent}` : l))
            .join('\n');
          return `M 100644 inline ${file}\ndata ${Buffer.byteLength(text)}\n${text}\n`;
        });
        const mark = agents.length + i + 1;
        chunks.push(
          `commit refs/bench/work\nmark :${mark}\ncommitter ${agent.agent} <work@bench.invalid> ${seconds} +0000\ndata 9\nsnapshot\nfrom ${base}\n${edits.join('')}\n`,
        );
        parent = `from :${mark}\n`;
      }
      chunks.push(
        `commit ${refs[0]}\nmark :${i + 1}\ncommitter airspace-hooks <beacon@airspace-hooks.invalid> ${seconds} +0000\ndata 21\nairspace-hooks beacon\n${parent}${parent ? 'deleteall\n' : ''}M 100644 inline beacon.json\ndata ${Buffer.byteLength(json)}\n${json}\n`,
      );
      for (const ref of refs.slice(1)) chunks.push(`reset ${ref}\nfrom :${i + 1}\n`);
    });
    git(repo, ['fast-import', '--quiet'], chunks.join(''));
    if (WORK) git(repo, ['update-ref', '-d', 'refs/bench/work']);
    git(repo, ['pack-refs', '--all']);
    git(repo, ['repack', '-adq']);
    results[design] = { repo, base, refs: Number(git(repo, ['for-each-ref', '--format=x', 'refs/airspace/']).split('\n').length) };
  }
  return results;
}

const freePort = () =>
  new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });

/**
 * Forwards `from` to `to`, each chunk RTT/2 after it arrived (in order; a latency, not a bandwidth
 * limit): --rtt stands for a git host at a distance, where 127.0.0.1 alone has none.
 */
function forward(from, to) {
  if (RTT_MS === 0) {
    from.pipe(to);
    return;
  }
  let queue = Promise.resolve();
  const later = (work) => {
    const due = performance.now() + RTT_MS / 2;
    queue = queue.then(() => new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())))).then(work);
  };
  from.on('data', (d) => later(() => to.write(d)));
  from.on('end', () => later(() => to.end()));
}

/** A TCP relay to the daemon that counts the bytes each way. */
function relay(port, targetPort) {
  const counted = { down: 0, up: 0 };
  // Half-open both ways: with --rtt, what one side sent before its end still has to arrive.
  const server = net.createServer({ allowHalfOpen: RTT_MS > 0 }, (client) => {
    const upstream = net.connect({ port: targetPort, host: '127.0.0.1', allowHalfOpen: RTT_MS > 0 });
    client.on('data', (d) => (counted.up += d.length));
    upstream.on('data', (d) => (counted.down += d.length));
    forward(client, upstream);
    forward(upstream, client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
    // Without --rtt, one side's close ends the other at once; with it, each side ends after its
    // delayed data (forward), and a socket closes once both of its halves have ended.
    if (RTT_MS === 0) {
      client.on('close', end);
      upstream.on('close', end);
    }
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ server, counted })));
}

async function waitForDaemon(port) {
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('git daemon did not start');
}

const localRefs = (cwd) => {
  const out = git(cwd, ['for-each-ref', '--format=%(refname)', 'refs/airspace/remote/']);
  return out === '' ? 0 : out.split('\n').length;
};

/** One design's beacon part of a push: fetch (the real protocol) and read, as src/run does. */
async function beaconPart(build, cwd, prefixes, pusher, counted, mates) {
  counted.down = 0;
  counted.up = 0;
  const started = performance.now();
  const fetched = await build.fetchBeacons({
    cwd,
    remote: 'origin',
    commonDir: join(cwd, '.git'),
    maxBytes: MAX_BYTES,
    timeoutMs: 600_000,
    ...(prefixes ? { prefixes: async () => prefixes } : {}),
  });
  const read = await build.readBeacons(cwd, { now: Date.now(), selfClone: pusher.clone, relevantPaths: async () => new Set(pusher.files) });
  const ms = performance.now() - started;
  const seen = new Set(read.beacons.map((b) => b.agent));
  const notRead = read.skipped.filter((s) => s.reason === 'too-many').reduce((n, s) => n + Number(s.detail), 0);
  return {
    listed: fetched.listed,
    fetchedRefs: localRefs(cwd),
    bytes: counted.down,
    read: read.beacons.length,
    notRead,
    matesSeen: mates.filter((m) => seen.has(m)).length,
    seen,
    ms,
  };
}

const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  const depTables = [];
  const root = mkdtempSync(join(tmpdir(), 'beacon-areas-'));
  const srv = join(root, 'srv');
  mkdirSync(srv);
  const daemonPort = await freePort();
  // receive-pack enabled for the publish probe (a push); bound to 127.0.0.1 and a temp directory.
  const daemon = spawn(
    'git',
    ['daemon', '--export-all', '--enable=receive-pack', `--base-path=${srv}`, '--listen=127.0.0.1', `--port=${daemonPort}`, '--reuseaddr'],
    {
      env,
      stdio: 'ignore',
    },
  );
  const lines = [];
  const say = (text) => {
    lines.push(text);
    console.log(text);
  };
  try {
    await waitForDaemon(daemonPort);
    const relayPort = await freePort();
    const { server, counted } = await relay(relayPort, daemonPort);
    say(
      `# Beacon areas on the git protocol (git daemon on 127.0.0.1${RTT_MS > 0 ? `, ${RTT_MS} ms round trip added` : ''}, ${cpus().length} cores, load ${loadavg()[0].toFixed(2)})`,
    );
    say('');
    say(`Zipf s = ${ZIPF_S} over areas (one area per ${AGENTS_PER_AREA} agents, ${FILES_PER_AREA} files each); each agent touches 1–3 areas.`);
    say(`${PUSHES} pushing agents drawn from the same distribution; cold = first fetch in a fresh clone, warm = the next push, nothing changed.`);
    say('');
    say(
      '| agents | areas | design | refs on remote | refs listed | refs fetched | bytes (cold) | beacons read | area-mates read | time cold | time warm | bytes warm |',
    );
    say('|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const count of AGENT_COUNTS) {
      const areas = Math.max(10, Math.round(count / AGENTS_PER_AREA));
      const agents = makeAgents(count, areas, 42 + count);
      const remotes = buildRemotes(srv, agents, areas);
      const byArea = new Map();
      for (const agent of agents) for (const area of new Set(agent.files.map(areaOf))) byArea.set(area, [...(byArea.get(area) ?? []), agent.agent]);
      // The pushers: agents of the same distribution, the pushing one's own beacon not among the others.
      const random = rng(7 + count);
      const pushers = Array.from({ length: PUSHES }, () => agents[Math.floor(random() * agents.length)]);
      const template = {};
      for (const design of DESIGNS) {
        template[design] = join(root, `template-${design}-${count}`);
        await clone(root, ['--no-checkout', `git://127.0.0.1:${relayPort}/${design}-${count}.git`, template[design]]);
      }
      // The legacy design reads the same in both builds: it runs in this one only.
      const parts = DESIGNS.flatMap((design) => (design === 'today' ? [{ design, build: builds.at(-1) }] : builds.map((build) => ({ design, build }))));
      const rows = parts.map(() => []);
      const ownOnlyRows = rows[parts.findIndex((part) => part.design === 'areas' && part.build === builds.at(-1))];
      const graphs = Object.fromEntries(GRAPH_SHAPES.map((shape, i) => [shape, makeGraph(areas, shape, 99 + count + i)]));
      const depRows = Object.fromEntries(GRAPH_SHAPES.map((shape) => [shape, []]));
      depTables.push({ count, areas, depRows });
      for (const [p, pusher] of pushers.entries()) {
        const ownAreas = [...new Set(pusher.files.map(areaOf))];
        const mates = [...new Set(ownAreas.flatMap((area) => byArea.get(area) ?? []))].filter((m) => m !== pusher.agent);
        for (const [i, { design, build }] of parts.entries()) {
          const copy = join(root, `push-${design}-${count}-${p}`);
          cpSync(template[design], copy, { recursive: true });
          const prefixes = design === 'areas' ? areaPrefixes(pusher.files) : null;
          const cold = await beaconPart(build, copy, prefixes, pusher, counted, mates);
          const warm = await beaconPart(build, copy, prefixes, pusher, counted, mates);
          rows[i].push({ ...cold, mates: mates.length, warmMs: warm.ms, warmBytes: warm.bytes });
          rmSync(copy, { recursive: true, force: true });
        }
        // The reader that also lists the areas within the dependency channel's reach, per graph shape:
        // the same remote, the same beacons (publishing is unchanged), the graph cache on disk.
        for (const shape of GRAPH_SHAPES) {
          const copy = join(root, `push-deps-${count}-${p}`);
          cpSync(template.areas, copy, { recursive: true });
          mkdirSync(join(copy, '.git', 'airspace'), { recursive: true });
          writeGraphCache(join(copy, '.git'), { builtAt: Date.now(), configKey: '', typescriptAvailable: true, files: graphs[shape] });
          const listStarted = performance.now();
          const reach = dependencyPaths(join(copy, '.git'), pusher.files, { model: {} }, ['dependency']);
          const reached = reach.state === 'read' ? reach.paths : [];
          // As the run lists them (src/run/collect-traffic.ts): its own areas, then the nearest
          // of the reach in hop order up to MAX_AREAS in all, and the wide area.
          const ownAreas = new Set(pusher.files.map(areaOf));
          const nearby = [...new Set(reached.map(areaOf).filter((area) => !ownAreas.has(area)))].slice(0, Math.max(0, MAX_AREAS - ownAreas.size));
          const own = [...ownAreas, '*'].map((area) => `refs/airspace/areas/${areaKey(area)}/`);
          const near = nearby.map((area) => `refs/airspace/areas/${areaKey(area)}/`);
          const listMs = performance.now() - listStarted;
          const inReach = new Set(reached);
          const coupled = agents.filter((a) => a !== pusher && a.files.some((f) => inReach.has(f))).map((a) => a.agent);
          const ownOnly = ownOnlyRows.at(-1);
          // Each build in a fresh copy: this one gets the own and the nearby areas apart (the nearby
          // ones fetched within the read bound), a baseline the one list it read whole (apart too
          // with --baseline-nearby).
          for (const build of builds) {
            const each = `${copy}-${build === builds.at(-1) ? 'this' : 'base'}`;
            cpSync(copy, each, { recursive: true });
            const prefixes = build === builds.at(-1) || BASELINE_NEARBY ? { own, nearby: near } : [...own, ...near];
            const cold = await beaconPart(build, each, prefixes, pusher, counted, coupled);
            const warm = await beaconPart(build, each, prefixes, pusher, counted, coupled);
            const ownSeen = coupled.filter((agent) => ownOnly.seen.has(agent)).length;
            depRows[shape].push({
              ...cold,
              build: build.label,
              areas: own.length + near.length,
              wide: false,
              coupled: coupled.length,
              coupledOwnOnly: ownSeen,
              ownAreas: areaPrefixes(pusher.files).length,
              ownListed: ownOnly.listed,
              ownBytes: ownOnly.bytes,
              ownRead: ownOnly.read,
              ownMs: ownOnly.ms,
              listMs,
              warmMs: warm.ms,
              warmBytes: warm.bytes,
            });
            rmSync(each, { recursive: true, force: true });
          }
          rmSync(copy, { recursive: true, force: true });
        }
      }
      for (const [i, { design, build }] of parts.entries()) {
        const r = rows[i];
        const med = (key) => median(r.map((x) => x[key]));
        const max = (key) => Math.max(...r.map((x) => x[key]));
        const mateShare =
          r.reduce((n, x) => n + x.matesSeen, 0) /
          Math.max(
            1,
            r.reduce((n, x) => n + x.mates, 0),
          );
        const name = builds.length > 1 && design !== 'today' ? `${design} (${build.label})` : design;
        say(
          `| ${count.toLocaleString('en')} | ${areas.toLocaleString('en')} | ${name} | ${remotes[design].refs.toLocaleString('en')} | ${med('listed')} (max ${max('listed')}) | ${med('fetchedRefs')} | ${mib(med('bytes'))} (max ${mib(max('bytes'))}) | ${med('read')} (max ${max('read')}) | ${(mateShare * 100).toFixed(0)} % | ${med('ms').toFixed(0)} ms (max ${max('ms').toFixed(0)}) | ${med('warmMs').toFixed(0)} ms | ${mib(med('warmBytes'))} |`,
        );
      }
      // The whole check of the CLI (branch fetch, traffic, beacons, scoring), areas design: for the
      // median pusher and for the one that reads the most beacons (the hottest area), each build
      // CHECKS times in turn, each time in a fresh clone (cold: nothing fetched, no graph cache),
      // then once more with nothing changed (warm).
      const areaRows = rows[parts.findIndex((part) => part.design === 'areas' && part.build === builds.at(-1))];
      const ranked = pushers.map((pusher, i) => ({ pusher, read: areaRows?.[i]?.read ?? 0 })).sort((a, b) => a.read - b.read);
      let worktree = '';
      const checks = [
        { label: 'median', pusher: ranked[Math.floor(ranked.length / 2)].pusher },
        { label: 'most beacons', pusher: ranked[ranked.length - 1].pusher },
      ];
      let traces = 0;
      const checkOnce = async (build, cwd) => {
        counted.down = 0;
        const started = performance.now();
        // CPU (user + sys of the check and the git processes it waited for, GNU time) beside the wall
        // clock: on a shared machine the wall clock follows the load, the CPU far less.
        // The git processes the check started itself (trace2 sessions without a parent: a fetch's
        // transport children are git's, not ours), as test/integration/run-git-processes.test.ts counts them.
        const trace = join(root, `trace-${++traces}.json`);
        const traced = { GIT_TRACE2_EVENT: trace };
        const check = TIME
          ? await run(TIME, ['-f', `${CPU_MARK}%U %S`, process.execPath, build.bin, 'check', '--fetch', '--json'], cwd, traced)
          : await run(process.execPath, [build.bin, 'check', '--fetch', '--json'], cwd, traced);
        const ms = performance.now() - started;
        const gitProcesses = existsSync(trace)
          ? readFileSync(trace, 'utf8')
              .split('\n')
              .filter((line) => line.includes('"event":"start"') && !/"sid":"[^"]*\//.test(line)).length
          : Number.NaN;
        rmSync(trace, { force: true });
        const cpu = TIME ? check.stderr.split(CPU_MARK)[1]?.trim().split(' ').map(Number) : undefined;
        const cpuMs = cpu?.length === 2 ? Math.round((cpu[0] + cpu[1]) * 1000) : Number.NaN;
        try {
          const report = JSON.parse(check.stdout);
          // Where the check's time goes (the run's stage log): fetch, traffic, beacons, channels, scoring.
          return {
            ms,
            cpuMs,
            gitProcesses,
            bytes: counted.down,
            peers: report.scanned.peers.beacons,
            stages: report.scanned.stages.map((s) => ({ stage: s.stage, ms: s.ms })),
          };
        } catch {
          return { ms, cpuMs, gitProcesses, bytes: counted.down, peers: `exit ${check.status}: ${check.stderr.slice(0, 200)}`, stages: [] };
        }
      };
      for (const { label, pusher } of checks) {
        const runs = builds.map(() => []);
        for (let n = 0; n < CHECKS; n++) {
          for (const [b, build] of builds.entries()) {
            worktree = join(root, `check-${count}-${label.replace(' ', '-')}-${b}-${n}`);
            await clone(root, [`git://127.0.0.1:${relayPort}/areas-${count}.git`, worktree]);
            git(worktree, ['switch', '-q', '-c', pusher.agent]);
            for (const file of pusher.files) writeFileSync(join(worktree, file), `${'// edited\n'.repeat(3)}${git(worktree, ['show', `HEAD:${file}`])}\n`);
            writeFileSync(join(worktree, '.git', 'info', 'exclude'), '.airspacerc.json\n');
            writeFileSync(join(worktree, '.airspacerc.json'), JSON.stringify({ beacons: { legacyRefs: 'off' } }));
            const cold = await checkOnce(build, worktree);
            const warm = await checkOnce(build, worktree);
            runs[b].push({ cold, warm });
            if (n < CHECKS - 1 || b < builds.length - 1) rmSync(worktree, { recursive: true, force: true });
          }
        }
        for (const [b, build] of builds.entries()) {
          const r = runs[b];
          // By name, in the first run's order: stages that run side by side (the traffic beside the
          // beacon fetch, the beacons beside the graph) end in a different order from run to run.
          const medianStages = (which) =>
            r[0][which].stages
              .map(({ stage }) => `${stage} ${Math.round(median(r.map((x) => x[which].stages.find((s) => s.stage === stage)?.ms ?? 0)))}`)
              .join(', ');
          const name = builds.length > 1 ? `, ${build.label}` : '';
          say(
            `| ${count.toLocaleString('en')} | | \`check --fetch\` (areas, CLI, ${label} pusher${name}) | | | | ${mib(median(r.map((x) => x.cold.bytes)))} | ${r[0].cold.peers} | | ${Math.round(median(r.map((x) => x.cold.ms)))} ms (${r.map((x) => Math.round(x.cold.ms)).join(', ')}; CPU ${Math.round(median(r.map((x) => x.cold.cpuMs)))} ms, git ${median(r.map((x) => x.cold.gitProcesses))}): ${medianStages('cold')} | ${Math.round(median(r.map((x) => x.warm.ms)))} ms (CPU ${Math.round(median(r.map((x) => x.warm.cpuMs)))} ms, git ${median(r.map((x) => x.warm.gitProcesses))}): ${medianStages('warm')} | ${mib(median(r.map((x) => x.warm.bytes)))} |`,
          );
        }
      }
      // The real pre-push of the pusher that reads the most beacons: its installed hook run by `git
      // push` (fetch, judge, publish its beacon announcing the push, look again), in a fresh clone of
      // a copy of the remote (cold: the clone's first push), then once more after an amend (warm).
      // `check --fetch` above is the check without the publish and the second look.
      const busiest = checks.at(-1).pusher;
      const hookRuns = builds.map(() => []);
      for (let n = 0; n < CHECKS; n++) {
        for (const [b, build] of builds.entries()) {
          const name = `pre-push-${count}-${b}-${n}.git`;
          cpSync(join(srv, `areas-${count}.git`), join(srv, name), { recursive: true });
          const bin = join(root, `bin-${b}`);
          mkdirSync(bin, { recursive: true });
          if (!existsSync(join(bin, 'airspace-hooks'))) {
            writeFileSync(join(bin, 'airspace-hooks'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(build.bin)} "$@"\n`, {
              mode: 0o755,
            });
          }
          const pathEnv = { PATH: `${bin}:${process.env.PATH}` };
          const pushing = join(root, `pre-push-${count}-${b}-${n}`);
          await clone(root, [`git://127.0.0.1:${relayPort}/${name}`, pushing]);
          git(pushing, ['switch', '-q', '-c', busiest.agent]);
          for (const file of busiest.files) writeFileSync(join(pushing, file), `${'// edited\n'.repeat(3)}${git(pushing, ['show', `HEAD:${file}`])}\n`);
          writeFileSync(join(pushing, '.git', 'info', 'exclude'), '.airspacerc.json\n');
          writeFileSync(join(pushing, '.airspacerc.json'), JSON.stringify({ beacons: { legacyRefs: 'off' } }));
          const installed = await run(process.execPath, [build.bin, 'install'], pushing, pathEnv);
          if (installed.status !== 0) throw new Error(`install: ${installed.stderr}`);
          git(pushing, ['commit', '-q', '--no-verify', '-am', `${busiest.agent} work`]);
          const pushOnce = async () => {
            const trace = join(root, `trace-push-${++traces}.json`);
            const started = performance.now();
            const pushed = await run('git', ['push', '-f', 'origin', busiest.agent], pushing, { ...pathEnv, GIT_TRACE2_EVENT: trace });
            const ms = performance.now() - started;
            if (pushed.status !== 0) throw new Error(`git push: ${pushed.stderr}`);
            const hookMs = prePushHookMs(existsSync(trace) ? readFileSync(trace, 'utf8') : '');
            rmSync(trace, { force: true });
            return { ms, hookMs, peers: /(\d+) beacons? ·/.exec(pushed.stderr)?.[1] ?? '?' };
          };
          const cold = await pushOnce();
          git(pushing, ['commit', '-q', '--no-verify', '--amend', '-m', `${busiest.agent} work, again`]);
          const warm = await pushOnce();
          hookRuns[b].push({ cold, warm });
          rmSync(pushing, { recursive: true, force: true });
          rmSync(join(srv, name), { recursive: true, force: true });
        }
      }
      for (const [b, build] of builds.entries()) {
        const r = hookRuns[b];
        const name = builds.length > 1 ? `, ${build.label}` : '';
        const cell = (which) =>
          `${Math.round(median(r.map((x) => x[which].hookMs)))} ms (${r.map((x) => Math.round(x[which].hookMs)).join(', ')}; the whole \`git push\` ${Math.round(median(r.map((x) => x[which].ms)))} ms)`;
        say(
          `| ${count.toLocaleString('en')} | | pre-push hook of \`git push\` (areas, most beacons pusher${name}: fetch, judge, publish, look again) | | | | | ${r[0].cold.peers} | | ${cell('cold')} | ${cell('warm')} | |`,
        );
      }
      // Publishing is a push: git 2.39's receive-pack has no protocol v2 and advertises every ref,
      // whatever protocol.version says (the second row per design asks for v2 and gets the same bytes).
      for (const design of DESIGNS) {
        await run('git', ['remote', 'set-url', 'origin', `git://127.0.0.1:${relayPort}/${design}-${count}.git`], worktree);
        for (const protocol of [null, '2']) {
          counted.down = 0;
          const pushStarted = performance.now();
          const config = protocol ? ['-c', `protocol.version=${protocol}`] : [];
          const probe = `refs/airspace/bench/${design}-probe${protocol ? `-v${protocol}` : ''}`;
          const pushed = await run('git', [...config, 'push', '-q', '--no-verify', 'origin', `HEAD:${probe}`], worktree);
          const pushMs = performance.now() - pushStarted;
          if (pushed.status !== 0) throw new Error(`git push: ${pushed.stderr}`);
          say(
            `| ${count.toLocaleString('en')} | | one beacon push (${design}: ref advertisement${protocol ? `, protocol.version=${protocol}` : ''}) | ${remotes[design].refs.toLocaleString('en')} | | | ${mib(counted.down)} | | | ${pushMs.toFixed(0)} ms | | |`,
          );
        }
      }
    }
    say('');
    say('## The reader that also lists its dependency areas (src/run/dependency-areas.ts), same remote (areas.git)');
    say('');
    say(
      '| agents | graph | build | areas listed (own only → with dependency areas) | refs listed | refs fetched | bytes (cold) | beacons read | dependency-coupled peers read (own areas only → with) | listing (graph read + reach) | time cold (own only → with) | time warm | bytes warm |',
    );
    say('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const { count, depRows } of depTables) {
      for (const shape of GRAPH_SHAPES) {
        for (const build of builds) {
          const r = depRows[shape].filter((x) => x.build === build.label);
          const med = (key) => median(r.map((x) => x[key]));
          const max = (key) => Math.max(...r.map((x) => x[key]));
          const share = (key) =>
            `${(
              (r.reduce((n, x) => n + x[key], 0) /
                Math.max(
                  1,
                  r.reduce((n, x) => n + x.coupled, 0),
                )) *
                100
            ).toFixed(0)} %`;
          say(
            `| ${count.toLocaleString('en')} | ${shape} | ${build.label} | ${med('ownAreas')} → ${med('areas')} | ${med('ownListed')} → ${med('listed')} (max ${max('listed')}) | ${med('fetchedRefs')} (max ${max('fetchedRefs')}) | ${mib(med('ownBytes'))} → ${mib(med('bytes'))} (max ${mib(max('bytes'))}) | ${med('ownRead')} → ${med('read')} (max ${max('read')}) | ${share('coupledOwnOnly')} → ${share('matesSeen')} (median ${med('coupled')} coupled) | ${med('listMs').toFixed(0)} ms (max ${max('listMs').toFixed(0)}) | ${med('ownMs').toFixed(0)} → ${med('ms').toFixed(0)} ms (max ${max('ms').toFixed(0)}) | ${med('warmMs').toFixed(0)} ms | ${mib(med('warmBytes'))} |`,
          );
        }
      }
    }
    server.close();
    if (OUT) writeFileSync(OUT, `${lines.join('\n')}\n`);
  } finally {
    daemon.kill('SIGTERM');
    // --keep: leave the scene (remotes, the last clones) for profiling one check by hand.
    if (KEEP) say(`scene kept in ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

/** How long git's pre-push hook ran, from a `git push`'s GIT_TRACE2_EVENT trace (its child of class hook). */
function prePushHookMs(trace) {
  const events = trace
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const top = events.find((e) => e.event === 'start')?.sid;
  const hook = events.find((e) => e.sid === top && e.event === 'child_start' && e.child_class === 'hook');
  const exit = hook && events.find((e) => e.sid === top && e.event === 'child_exit' && e.child_id === hook.child_id);
  return exit ? exit.t_rel * 1000 : Number.NaN;
}

await main();
