// The busiest pusher's cold beacon fetch (issue 27, docs/decisions/beacon-areas.md, "Flat local names"):
// one area holding N beacons (594: the hottest area of bench/beacon-areas.mjs at 10,000 agents) on a
// bare file remote; src/git/fetch-beacons.ts reads it in a fresh clone, this build and a baseline build
// alternating, and the bench prints the median wall time of each and the time of the one
// `update-ref --stdin` that writes the local copies (from GIT_TRACE2_EVENT).
//
// Run: npm run build:js && node bench/beacon-cold-refs.mjs --baseline DIR [--refs 594] [--runs 10]
// DIR: another build of this package (its dist/), e.g. a checkout of main after `npm ci && npm run build:js`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const REFS = Number(option('refs', '594'));
const RUNS = Number(option('runs', '10'));
const BASELINE = option('baseline', null);
const load = (dir) => import(pathToFileURL(join(dir, 'dist', 'git', 'fetch-beacons.js')).href);
const builds = [{ label: 'this build', module: await load(join(import.meta.dirname, '..')) }];
if (BASELINE) builds.unshift({ label: 'baseline', module: await load(BASELINE) });

const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
const root = mkdtempSync(join(tmpdir(), 'beacon-cold-refs-'));
const remote = join(root, 'remote.git');
const git = (cwd, gitArgs, input) => execFileSync('git', gitArgs, { cwd, env, input, encoding: 'utf8', maxBuffer: 1 << 28 });
try {
  git(root, ['init', '-q', '--bare', remote]);
  git(remote, ['config', 'uploadpack.allowFilter', 'true']);
  const now = Math.floor(Date.now() / 1000);
  const chunks = ['commit refs/heads/main\ncommitter s <s@bench.invalid> 1700000000 +0000\ndata 1\ns\nM 100644 inline a.txt\ndata 2\na\n'];
  for (let i = 0; i < REFS; i++) {
    const json = JSON.stringify({ n: i, note: 'x'.repeat(300) });
    chunks.push(
      `commit refs/airspace/areas/aaaaaaaaaaaa/${i.toString(16).padStart(10, '0')}/agent-${i}\ncommitter b <b@bench.invalid> ${now - i} +0000\ndata 1\nb\nM 100644 inline beacon.json\ndata ${Buffer.byteLength(json)}\n${json}\n`,
    );
  }
  git(remote, ['fast-import', '--quiet'], chunks.join('\n'));
  git(remote, ['symbolic-ref', 'HEAD', 'refs/heads/main']);
  git(remote, ['pack-refs', '--all']);
  const results = builds.map(() => ({ ms: [], updateRefMs: [] }));
  const startLoad = loadavg()[0];
  for (let n = 0; n < RUNS; n++) {
    for (const [b, build] of builds.entries()) {
      const clone = join(root, `clone-${b}`);
      rmSync(clone, { recursive: true, force: true });
      git(root, ['clone', '-q', `file://${remote}`, clone]);
      const trace = join(root, `trace-${b}`);
      rmSync(trace, { force: true });
      process.env.GIT_TRACE2_EVENT = trace;
      const started = performance.now();
      await build.module.fetchBeacons({
        cwd: clone,
        remote: 'origin',
        commonDir: join(clone, '.git'),
        maxBytes: 256 * 1024,
        timeoutMs: 120_000,
        prefixes: async () => ['refs/airspace/areas/aaaaaaaaaaaa/'],
      });
      results[b].ms.push(performance.now() - started);
      delete process.env.GIT_TRACE2_EVENT;
      // The update-ref into the user's repository: the last `update-ref` process of the run.
      const events = readFileSync(trace, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line));
      const updateRefs = new Set(events.filter((e) => e.event === 'cmd_name' && e.name === 'update-ref').map((e) => e.sid));
      const exits = events.filter((e) => e.event === 'exit' && updateRefs.has(e.sid));
      if (exits.length > 0) results[b].updateRefMs.push(exits.at(-1).t_abs * 1000);
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
  console.log(
    `# Cold beacon fetch of ${REFS} refs in one area (file remote, load ${startLoad.toFixed(2)} → ${loadavg()[0].toFixed(2)}, ${RUNS} runs each, alternating)`,
  );
  console.log('');
  console.log('| build | fetch (median) | runs | update-ref --stdin (median) |');
  console.log('|---|---|---|---|');
  for (const [b, build] of builds.entries()) {
    const r = results[b];
    console.log(`| ${build.label} | ${Math.round(median(r.ms))} ms | ${r.ms.map(Math.round).join(', ')} | ${Math.round(median(r.updateRefMs))} ms |`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
