// The resident process (docs/decisions/resident.md), measured against the one-shot path in the
// same run, interleaved round by round so a burst of load lands on every row:
//   - pre-commit overhead: `git commit --allow-empty` with the hook − the same with --no-verify,
//     with the resident process and without it (AIRSPACE_RESIDENT=off);
//   - the Claude Code edit check (the entry `install --claude-code` writes: examples/claude-code/pre-edit.cjs,
//     or pre-edit.mjs in a build from before it) with and without it, against `node -e 0`;
//   - the warm edit question alone: the build's own client (dist/ask-resident.bundle.js) in this
//     process asks the resident what the edit check asks, connect to answer — the resident's share of
//     the edit check without Node's start;
//   - the resident's idle CPU over a minute (utime + stime from /proc) and its RSS.
// On a clone of expressjs/express (from /work/.mirror, or --express DIR) with a linked worktree,
// both with uncommitted work in lib/, and on the generated monorepo (bench/lib/generate-repo.mjs)
// with --worktrees linked worktrees that have uncommitted work.
// Run: npm run build:js && node bench/resident.mjs [--runs 7] [--size full|smoke] [--worktrees 3]
//      [--idle-seconds 60] [--skip-express] [--skip-typeorm] [--skip-generated] [--baseline DIR]
// --baseline DIR: another build of this package (its bin/, dist/ and examples/: e.g.
// `git archive main | tar -x -C DIR`, node_modules linked, `npm run build:js`), measured beside this
// one in the same run, round by round, each on its own copy of every repository.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { generateRepo, SIZES } from './lib/generate-repo.mjs';
import { benchGitEnv, gitIn } from './lib/git-run.mjs';
import { median, timeProcess } from './lib/measure.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    size: { type: 'string', default: 'full' },
    worktrees: { type: 'string', default: '3' },
    'idle-seconds': { type: 'string', default: '60' },
    express: { type: 'string', default: '/work/.mirror/expressjs+express/repo' },
    'skip-express': { type: 'boolean', default: false },
    typeorm: { type: 'string', default: '/work/.mirror/typeorm+typeorm/repo' },
    'skip-typeorm': { type: 'boolean', default: false },
    'skip-generated': { type: 'boolean', default: false },
    baseline: { type: 'string' },
  },
});
const runs = Number(values.runs);
const work = mkdtempSync(join(tmpdir(), 'airspace-bench-resident-'));

/**
 * The builds measured: this one, and with --baseline DIR another build of this package (a directory
 * holding its bin/, dist/ and examples/, e.g. an export of main after `npm run build:js`). Each build
 * gets its own copy of every repository and its own resident (one resident serves one repository,
 * and a resident of another build is never asked); their rounds alternate, so a burst of load lands
 * on both.
 */
const builds = [{ label: 'this build', root: ROOT }];
if (values.baseline) builds.unshift({ label: 'baseline', root: values.baseline });
for (const build of builds) {
  // The hooks find the CLI on PATH, as after `npm i -g`.
  const binDir = join(work, `bin-${build.label.replace(/\W+/g, '-')}`);
  mkdirSync(binDir);
  const bin = join(build.root, 'bin', 'airspace-hooks.js');
  symlinkSync(bin, join(binDir, 'airspace-hooks'));
  // The shell's answers (bin/airspace-hooks-ready), linked beside the CLI as npm links every bin.
  const ready = join(build.root, 'bin', 'airspace-hooks-ready');
  if (existsSync(ready)) symlinkSync(ready, join(binDir, 'airspace-hooks-ready'));
  const baseEnv = benchGitEnv({
    PATH: `${binDir}:${process.env.PATH}`,
    // No background graph build may load the machine during a row; a loaded machine must not cut a run.
    AIRSPACE_GRAPH_BACKGROUND: 'off',
    AIRSPACE_HOOKS_BUDGET_MS: '600000',
    NO_COLOR: '1',
  });
  Object.assign(build, {
    bin,
    // The entry `install --claude-code` writes: pre-edit.cjs, or pre-edit.mjs in a build from before it.
    preEdit: ['pre-edit.cjs', 'pre-edit.mjs'].map((name) => join(build.root, 'examples', 'claude-code', name)).find((path) => existsSync(path)),
    on: { ...baseEnv, AIRSPACE_RESIDENT: 'on' },
    off: { ...baseEnv, AIRSPACE_RESIDENT: 'off' },
  });
}
const cli = (build, cwd, args, env = build.off) =>
  spawnSync(process.execPath, [build.bin, ...args], { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

/**
 * `resident status --json`; a resident busy with a background re-score (seconds on the 10,000-file
 * repository) may not answer the status question in time, so ask again for up to a minute.
 */
function status(build, cwd) {
  let now;
  for (let i = 0; i < 60; i++) {
    now = JSON.parse(cli(build, cwd, ['resident', 'status', '--json'], build.on).stdout);
    // A busy resident reads as 'stale' to a status question it could not answer in time.
    if (now.state === 'running' || now.state === 'none') return now;
    spawnSync('sleep', ['1']);
  }
  return now;
}

/** Started by hand, so its log (every re-score) goes to `log`. */
async function startResident(build, cwd, log) {
  const fd = openSync(log, 'a');
  const child = spawn(process.execPath, [build.bin, 'resident', 'serve'], { cwd, env: build.on, stdio: ['ignore', fd, fd], detached: true });
  closeSync(fd);
  child.unref();
  for (let i = 0; i < 1200; i++) {
    const now = status(build, cwd);
    if (now.state === 'running') return now.status.pid;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no resident process in ${cwd}`);
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** utime + stime of a process, in ms, from /proc (Linux). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

function rssBytes(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line.split(/\s+/)[1]) * 1024;
}

/** One repository measured under each build: `lanes` holds one copy of it per build, in the order of `builds`. */
async function measure(name, lanes) {
  for (const lane of lanes) {
    const { build, cwd, editFile } = lane;
    console.error(`${name} (${build.label}): warming up`);
    cli(build, cwd, ['install'], build.off);
    lane.commit = (env, extra = []) => timeProcess('git', ['commit', '-q', '--allow-empty', '-m', 'bench', ...extra], { cwd, env });
    const editInput = JSON.stringify({ hook_event_name: 'PreToolUse', cwd, tool_name: 'Edit', tool_input: { file_path: join(cwd, editFile) } });
    lane.edit = (env) => timeProcess(process.execPath, [build.preEdit], { cwd, env, input: editInput });
    // Warm: the snapshot cache, the history, the intent store; then the resident, warmed by one question each.
    for (let i = 0; i < 2; i++) {
      lane.commit(build.off);
      lane.edit(build.off);
    }
    lane.log = join(work, `${name.replace(/\W+/g, '-')}-${build.label.replace(/\W+/g, '-')}-resident.log`);
    lane.pid = await startResident(build, cwd, lane.log);
    lane.commit(build.on);
    lane.edit(build.on);
    lane.before = status(build, cwd).status;
    lane.rows = { nodeFloor: [], bare: [], oneShot: [], resident: [], warm: [], editOneShot: [], editResident: [], editWarm: [], editQuestion: [] };
    // A build from before the client bundle has none: its question-alone column stays empty.
    const clientPath = join(build.root, 'dist', 'ask-resident.bundle.js');
    lane.client = existsSync(clientPath) ? await import(`${pathToFileURL(clientPath).href}?${encodeURIComponent(build.label)}`) : null;
    lane.warmAnswers = 0;
    lane.shellAnswers = 0;
    lane.codes = new Set();
  }
  const busy = (lane) => status(lane.build, lane.cwd).status.busy;
  /**
   * A question answered from the warm airspace needs the resident's re-score of the new HEAD to
   * have run (100 ms after the commit, then the run): wait until it is idle — and every other
   * lane's resident too, whose re-score would compete for the cores — then ask, and count whether
   * the answer was warm (status servedWarm).
   */
  const afterRescore = async (lane, measured) => {
    // The re-score starts after the watcher's last event, which a large tree delivers later:
    // wait (at most 3 s) until it runs, then until it is done.
    for (let i = 0; i < 30 && !busy(lane); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    for (const other of lanes) for (let i = 0; i < 300 && busy(other); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    const before = status(lane.build, lane.cwd).status;
    const result = measured();
    const after = status(lane.build, lane.cwd).status;
    if (after.servedWarm > before.servedWarm) lane.warmAnswers += 1;
    else if (after.ready !== undefined) {
      // The shell answered when the resident records that commit (it reads the served log within 250 ms).
      for (let i = 0; i < 20; i++) {
        if (status(lane.build, lane.cwd).status.ready.served > before.ready.served) {
          lane.shellAnswers += 1;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    return result;
  };
  for (let round = 0; round < runs; round++) {
    // Each build goes first in every other round: the lane that follows meets the background work
    // (re-scores) the other lane's last questions left behind.
    for (const lane of round % 2 === 0 ? lanes : [...lanes].reverse()) {
      const { build, rows, commit, edit } = lane;
      rows.nodeFloor.push(timeProcess(process.execPath, ['-e', '0'], { env: build.off }).ms);
      rows.bare.push(commit(build.off, ['--no-verify']).ms);
      const one = commit(build.off);
      // Right after a commit moved HEAD: the resident senses live (cold).
      const res = commit(build.on);
      rows.oneShot.push(one.ms);
      rows.resident.push(res.ms);
      const warm = await afterRescore(lane, () => commit(build.on));
      rows.warm.push(warm.ms);
      const e1 = edit(build.off);
      // A commit moved HEAD just before: the resident senses live (cold).
      commit(build.off, ['--no-verify']);
      const e2 = edit(build.on);
      const e3 = await afterRescore(lane, () => edit(build.on));
      if (lane.client !== null) {
        const near = lane.client.findWorktree(lane.cwd, build.on);
        const env = lane.client.plainEnvironment(build.on);
        for (let i = 0; i < 3; i++) {
          const started = performance.now();
          const asked = await lane.client.askResident(near.commonDir, { type: 'edit', cwd: near.toplevel, env, file: lane.editFile, ttlMs: 30 * 60_000 });
          if (asked.ok) rows.editQuestion.push(performance.now() - started);
          else console.error(`${name} (${build.label}): the question alone was not answered (${asked.reason})`);
        }
      }
      rows.editOneShot.push(e1.ms);
      rows.editResident.push(e2.ms);
      rows.editWarm.push(e3.ms);
      for (const r of [one, res, warm, e1, e2, e3]) lane.codes.add(r.code);
      console.error(`${name} (${build.label}): round ${round + 1}/${runs}`);
    }
  }
  const results = [];
  for (const lane of lanes) {
    const { build, cwd, pid, log } = lane;
    const served = status(build, cwd).status.served - lane.before.served;
    const idleSeconds = Number(values['idle-seconds']);
    // The last round's commits and edits re-score their worktrees in the background: that is work,
    // not idling. Measured from 15 s after the last question.
    await new Promise((resolve) => setTimeout(resolve, 15_000));
    console.error(`${name} (${build.label}): idle ${idleSeconds} s`);
    const logBefore = readFileSync(log, 'utf8').length;
    const cpuBefore = cpuMs(pid);
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const idleCpu = (cpuMs(pid) - cpuBefore) / (idleSeconds * 1000);
    // What the resident did while nobody asked: its log names every background re-score.
    const idleLog = readFileSync(log, 'utf8').slice(logBefore);
    const idleRescores = [...idleLog.matchAll(/re-scored /g)].length;
    if (idleRescores > 0) console.error(`${name} (${build.label}): re-scores while idle:\n${idleLog}`);
    const rss = rssBytes(pid);
    cli(build, cwd, ['resident', 'stop'], build.on);
    const m = Object.fromEntries(Object.entries(lane.rows).map(([k, v]) => [k, median(v)]));
    results.push({
      name,
      build: build.label,
      m,
      served,
      // The pre-commits and edit checks with the resident, and the questions alone it answered.
      expectedServed: runs * 4 + lane.rows.editQuestion.length,
      warmAnswers: lane.warmAnswers,
      shellAnswers: lane.shellAnswers,
      expectedWarm: runs * 2,
      idleCpu,
      idleRescores,
      rss,
      codes: [...lane.codes],
      uncommitted: gitIn(cwd, ['status', '--porcelain']).split('\n').filter(Boolean).length,
    });
  }
  return results;
}

/** Express: a clone of expressjs/express and one linked worktree, both with uncommitted work in lib/. */
function setUpExpress(express) {
  gitIn(work, ['clone', '-q', values.express, express]);
  const peer = `${express}-peer`;
  gitIn(express, ['worktree', 'add', '-q', '-b', 'peer', peer]);
  const edit = (dir, file, from, to) => writeFileSync(join(dir, file), readFileSync(join(dir, file), 'utf8').replace(from, to));
  edit(peer, 'lib/application.js', 'app.init = function init() {', 'app.init = function init() { // peer');
  gitIn(peer, ['commit', '-q', '--no-verify', '-a', '-m', 'peer: init']);
  edit(peer, 'lib/response.js', 'res.status = function status(code) {', 'res.status = function status(code) { // peer, uncommitted');
  edit(express, 'lib/application.js', 'app.init = function init() {', 'app.init = function init() { // main');
  edit(express, 'lib/request.js', 'req.get =', '// main, uncommitted\nreq.get =');
  return { cwd: express, editFile: 'lib/application.js' };
}

const TYPEORM_FILES = [
  'src/repository/Repository.ts',
  'src/entity-manager/EntityManager.ts',
  'src/query-builder/SelectQueryBuilder.ts',
  'src/data-source/DataSource.ts',
];

/** Issue 25's repository: typeorm at 281bfba42a, linked worktrees, uncommitted work in each. */
function setUpTypeorm(typeorm) {
  gitIn(work, ['clone', '-q', '--no-checkout', values.typeorm, typeorm]);
  gitIn(typeorm, ['checkout', '-q', '-B', 'bench', '281bfba42a']);
  const append = (dir, file, text) => writeFileSync(join(dir, file), `${readFileSync(join(dir, file), 'utf8')}${text}\n`);
  append(typeorm, TYPEORM_FILES[0], '// main, uncommitted');
  append(typeorm, TYPEORM_FILES[3], '// main, uncommitted');
  for (let i = 1; i <= Number(values.worktrees); i++) {
    const dir = `${typeorm}-w${i}`;
    gitIn(typeorm, ['worktree', 'add', '-q', '-b', `w${i}`, dir, 'bench']);
    append(dir, TYPEORM_FILES[i % TYPEORM_FILES.length], `// w${i}, uncommitted`);
  }
  // typeorm's hooks are husky's, inactive until `pnpm install`: the bench installs into the git dir's own.
  gitIn(typeorm, ['config', 'core.hooksPath', join(typeorm, '.git', 'hooks')]);
  return { cwd: typeorm, editFile: TYPEORM_FILES[0] };
}

/** One copy of a repository per build, its import graph built (untimed) by that build. */
function lanesOf(name, setUp) {
  return builds.map((build) => {
    const lane = { build, ...setUp(join(work, `${name}-${build.label.replace(/\W+/g, '-')}`)) };
    cli(build, lane.cwd, ['graph', 'build'], build.off);
    return lane;
  });
}

const results = [];
if (!values['skip-express']) results.push(...(await measure('express + 1 worktree', lanesOf('express', setUpExpress))));
if (!values['skip-typeorm']) results.push(...(await measure(`typeorm 281bfba42a + ${values.worktrees} worktrees`, lanesOf('typeorm', setUpTypeorm))));
if (!values['skip-generated']) {
  const size = { ...SIZES[values.size], worktrees: Number(values.worktrees), peers: Number(values.worktrees) };
  console.error(`generating the ${values.size} repository (${size.packages * size.areas * size.modules} modules, ${size.worktrees} worktrees) per build`);
  const lanes = lanesOf('generated', (dir) => {
    const generated = generateRepo(dir, size);
    const first = generated.worktrees[0];
    return { cwd: first.dir, editFile: gitIn(first.dir, ['diff', '--name-only']).split('\n')[0] };
  });
  results.push(...(await measure(`generated ${size.packages * size.areas * size.modules} files + ${size.worktrees} worktrees`, lanes)));
}

const f = (ms) => (Number.isFinite(ms) ? `${Math.round(ms)} ms` : '—');
const f1 = (ms) => (Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : '—');
const lines = [
  `# bench/resident.mjs — ${new Date().toISOString()}`,
  '',
  `Node ${process.versions.node}, ${runs} interleaved rounds per row (median)${values.baseline ? `, baseline ${values.baseline}` : ''}, load average at the end ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')}.`,
  '',
  '| repository | build | `node -e 0` | commit --no-verify | pre-commit overhead one-shot | … resident, cold | … resident, warm | edit check one-shot | … resident, cold | … resident, warm | warm − `node -e 0` | warm question alone | idle CPU (1 core) | re-scores while idle | resident RSS | answered by the resident | warm: from its memo / by the shell |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...results.map(
    (r) =>
      `| ${r.name} | ${r.build} | ${f(r.m.nodeFloor)} | ${f(r.m.bare)} | ${f(r.m.oneShot - r.m.bare)} | ${f(r.m.resident - r.m.bare)} | ${f(r.m.warm - r.m.bare)} | ${f(r.m.editOneShot)} | ${f(r.m.editResident)} | ${f(r.m.editWarm)} | ${f(r.m.editWarm - r.m.nodeFloor)} | ${f1(r.m.editQuestion)} | ${(r.idleCpu * 100).toFixed(2)} % | ${r.idleRescores} | ${(r.rss / 1024 / 1024).toFixed(0)} MiB | ${r.served}/${r.expectedServed} | ${r.warmAnswers} / ${r.shellAnswers} of ${r.expectedWarm} |`,
  ),
  // Same-run ratios of this build against the baseline: what the numbers above compare.
  ...results
    .filter((r) => r.build === 'this build')
    .flatMap((r) => {
      const base = results.find((b) => b.name === r.name && b.build === 'baseline');
      if (!base) return [];
      const warm = (x) => x.m.warm - x.m.bare;
      const edit = (x) => x.m.editWarm - x.m.nodeFloor;
      return [
        '',
        `${r.name}: warm pre-commit overhead ${f(warm(r))} against the baseline's ${f(warm(base))} (${(warm(r) / warm(base)).toFixed(2)}×); warm edit check − \`node -e 0\` ${f(edit(r))} against ${f(edit(base))}; warm edit check ${f(r.m.editWarm)} against ${f(base.m.editWarm)} (${(r.m.editWarm / base.m.editWarm).toFixed(2)}×); the question alone ${f1(r.m.editQuestion)} against ${f1(base.m.editQuestion)}.`,
      ];
    }),
  '',
  'Targets (issue 25): pre-commit overhead ≤ 100 ms; edit check ≤ `node -e 0` + 60 ms; idle CPU ≤ 1 %; RSS ≤ 200 MB (≤ 400 MB at 10,000 files).',
];
const text = `${lines.join('\n')}\n`;
process.stdout.write(text);
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'results', 'resident.md'), text);
for (const r of results) if (r.codes.some((c) => c !== 0 && c !== 2)) console.error(`WARNING: ${r.name}: exit codes ${r.codes.join(', ')}`);
if (existsSync(work)) rmSync(work, { recursive: true, force: true });
