/**
 * How many folder boundaries the pre-commit crosses, measured on a real run (issue 22's "Done
 * when": at most 20 moves between folders and at most 6 climbs back up a floor, from `runHook` to
 * the printed advisory). `npm run trace:folders`; `-- --list` prints every entry (`>>` a move,
 * `^^` a climb) and the climbs by pair of folders, `-- --json` the numbers, `-- --runs N` runs N
 * fresh scenarios (3), `-- --order time` counts in raw time order instead of call-tree order,
 * `-- --calls exported` counts only calls of exported functions (the calls a reader follows).
 * Method and rationale: docs/decisions/folder-trace.md.
 *
 * 1. Scenario, in a temp dir with real git: a bare remote, a seed pushed to `main`, a peer clone
 *    that pushes `peer/work` changing a function of src/session.ts, and the ownship clone on
 *    `own/work` that fetched it (`airspace-hooks check --fetch`, untraced: the fetch stamp and
 *    the import graph exist, the steady state of a hook) and staged its own edit of the same line.
 * 2. A child node process runs `runHook(['pre-commit'])` from the per-file modules in dist/ (not
 *    the hook bundle: the bundle has no folders) under an ESM `load` hook (module.register) that
 *    inserts `globalThis.__airspaceTrace?.(<file>)` at the start of every function body in
 *    dist/ — declarations, expressions, methods, arrows with block or expression bodies — at
 *    positions from oxc-parser's spans, and re-parses the result (a file that no longer parses
 *    stops the run).
 * 3. The child records the files entered, from the call of runHook until it returns, and each
 *    write to stderr, in call-tree order (asyncTree below: concurrent work listed one task after
 *    the other, as if each await finished at once, so the count does not depend on which git
 *    process answers first), consecutive duplicates collapsed. The counted window ends at the
 *    first write naming the peer's branch: the advisory.
 *
 * Counting, on the window: each dist/ file maps back to its src/ file; its folder is its directory
 * under src/ (`run`, `cli/commands`; `.` for src/errors.ts). A move is two consecutive entries in
 * different folders. A climb is a move into a folder on a HIGHER floor than the last floored
 * folder the walk was in. Floors come from FLOORS below (longest folder prefix wins). Side
 * layers — messages, report, config, errors, engine — are called from every floor (a sentence,
 * a renderer, a typed error, pure math): a move into or out of one is a move, but it is never a
 * climb and it does not change the floor the walk is on, so run → messages → git is one step
 * down and git → errors → run one climb. A folder FLOORS does not name is counted the same way
 * (a move, never a climb) and named in a WARNING, so a new folder shows up instead of skewing
 * the count: give it a floor here.
 */
import { createHook } from 'node:async_hooks';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMainThread } from 'node:worker_threads';

/**
 * The layering, top to bottom (README "Architecture", .dependency-cruiser*.cjs): the CLI reaches
 * the application only through its door (`app`/`main`, the facade issue 22 asks for), the door
 * runs the pipeline (`run`), the pipeline uses the domain folders, and everything that runs git
 * ends in `git`. `side` folders are libraries every floor calls (see the header).
 */
const FLOORS = {
  cli: 5,
  mcp: 5,
  app: 4,
  main: 4,
  run: 3,
  pipeline: 3,
  traffic: 2,
  beacon: 2,
  graph: 2,
  symbols: 2,
  state: 2,
  channels: 2,
  replay: 2,
  eval: 2,
  install: 2,
  demo: 2,
  git: 1,
  messages: 'side',
  report: 'side',
  config: 'side',
  errors: 'side',
  engine: 'side',
  fs: 'side',
  source: 'side',
  lib: 'side',
  '.': 'side',
};

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const SRC = join(ROOT, 'src');
const BIN = join(ROOT, 'bin', 'airspace-hooks.js');
// runHook in the per-file modules: the hook bundle (dist/hook.bundle.js) has no folders to count.
const HOOK_ENTRY = join(DIST, 'cli', 'hook-entry.js');
const PEER_BRANCH = 'peer/work';

// ---------------------------------------------------------------------------------------------
// The loader thread: module.register(import.meta.url) loads this same file there.

let parseSync;
let distPrefix = '';
let exportedOnly = false;

/** module.register's data: which URLs to instrument, and whether only exported functions are. */
export async function initialize(data) {
  distPrefix = data.distUrl;
  exportedOnly = data.calls === 'exported';
  ({ parseSync } = await import(data.oxcUrl));
}

export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (!distPrefix || !url.startsWith(distPrefix) || !url.endsWith('.js') || result.format !== 'module') return result;
  const file = url.slice(distPrefix.length);
  return { ...result, source: instrument(String(result.source), file) };
}

/** The source with a trace call at the start of every function body; throws if it stops parsing. */
function instrument(text, file) {
  const program = parseOrThrow(text, file, 'before');
  const call = `globalThis.__airspaceTrace?.(${JSON.stringify(file)})`;
  const inserts = [];
  const visit = (node) => {
    if (node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression') {
      if (node.body) inserts.push([node.body.start + 1, `${call};`]);
    } else if (node.type === 'ArrowFunctionExpression') {
      if (node.body.type === 'BlockStatement' || node.body.type === 'FunctionBody') inserts.push([node.body.start + 1, `${call};`]);
      else inserts.push([node.body.start, `(${call}, `], [node.body.end, ')']);
    }
  };
  if (exportedOnly) for (const node of exportedFunctions(program)) visit(node);
  else walk(program, visit);
  // Right to left, so earlier offsets stay valid; at one offset the later-pushed text goes first.
  inserts.sort((a, b) => b[0] - a[0]);
  let out = text;
  for (const [at, piece] of inserts) out = out.slice(0, at) + piece + out.slice(at);
  parseOrThrow(out, file, 'after instrumenting');
  return out;
}

/**
 * `--calls exported`: only the functions a module exports (declarations and `export const f =`
 * arrows or function expressions), the calls a reader follows from file to file with "go to
 * definition". Callbacks, closures and helpers inside a module are not steps of their own.
 */
function exportedFunctions(program) {
  const found = [];
  // The transpiled modules end with one `export { a, b }` list: those names are the exports.
  const names = new Set(
    program.body.flatMap((statement) =>
      statement.type === 'ExportNamedDeclaration' && !statement.declaration && !statement.source
        ? statement.specifiers.map((specifier) => specifier.local.name ?? specifier.local.value)
        : [],
    ),
  );
  for (const statement of program.body) {
    if (statement.type === 'FunctionDeclaration' && names.has(statement.id?.name)) found.push(statement);
    if (statement.type === 'VariableDeclaration') {
      for (const declarator of statement.declarations) {
        const init = declarator.init;
        if (names.has(declarator.id?.name) && init && (init.type === 'ArrowFunctionExpression' || init.type === 'FunctionExpression')) found.push(init);
      }
    }
    const declaration = statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration' ? statement.declaration : null;
    if (!declaration) continue;
    if (declaration.type === 'FunctionDeclaration' || declaration.type === 'FunctionExpression' || declaration.type === 'ArrowFunctionExpression')
      found.push(declaration);
    if (declaration.type === 'VariableDeclaration') {
      for (const declarator of declaration.declarations) {
        const init = declarator.init;
        if (init && (init.type === 'ArrowFunctionExpression' || init.type === 'FunctionExpression')) found.push(init);
      }
    }
  }
  return found;
}

function parseOrThrow(text, file, when) {
  const result = parseSync(file, text, { sourceType: 'module', lang: 'js' });
  const errors = result.errors.filter((e) => String(e.severity) === 'Error');
  if (errors.length > 0) throw new Error(`trace-folders: dist/${file} does not parse ${when}: ${errors[0].message}`);
  return result.program;
}

function walk(node, visit) {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  if (typeof node.type === 'string') visit(node);
  for (const key of Object.keys(node)) if (key !== 'parent') walk(node[key], visit);
}

// ---------------------------------------------------------------------------------------------
// The traced child: `node scripts/trace-folders.mjs --child <out.json>` in the ownship clone.

async function child(outFile) {
  register(import.meta.url, {
    data: { distUrl: `${pathToFileURL(DIST).href}/`, oxcUrl: import.meta.resolve('oxc-parser'), calls: process.env.AIRSPACE_TRACE_CALLS ?? 'all' },
  });
  const tree = asyncTree();
  const events = [];
  let recording = false;
  globalThis.__airspaceTrace = (file) => {
    if (recording) tree.record(events, { file });
  };
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = (chunk, ...rest) => {
    if (recording) tree.record(events, { write: String(chunk) });
    return write(chunk, ...rest);
  };
  const { runHook } = await import(pathToFileURL(HOOK_ENTRY).href);
  recording = true;
  const exitCode = await runHook(['pre-commit']);
  recording = false;
  tree.disable();
  const inTime = events.map((event, t) => ({ ...event, t }));
  const inTree = [...inTime].sort((a, b) => compareKeys(a.key, b.key));
  writeFileSync(outFile, JSON.stringify({ exitCode, tree: sequenceOf(inTree), time: sequenceOf(inTime) }));
}

/**
 * The call tree's order, independent of which git process or file read finishes first: every
 * async resource (a promise an `await` or `.then` makes, a child process, a stream) gets a key
 * where it is created — the key of the callback run creating it plus its place in that run — and
 * each run of its callback extends that key. Sorted by key, the entries read as if every awaited
 * operation had finished before the code that started it went on: `Promise.all([a(), b()])` lists
 * all of a's walk, then all of b's. (A cache that the first of two concurrent callers fills is the
 * one order this cannot fix: whoever asks first does the work.)
 */
function asyncTree() {
  const resources = new Map();
  const stack = [{ key: [], seq: 0 }];
  const current = () => stack[stack.length - 1];
  const hook = createHook({
    init(id) {
      const run = current();
      resources.set(id, { key: [...run.key, run.seq++], runs: 0 });
    },
    before(id) {
      const resource = resources.get(id);
      // A resource made before the hook was enabled: its runs sort after everything keyed here.
      stack.push(resource ? { key: [...resource.key, resource.runs++], seq: 0 } : { key: [Number.MAX_SAFE_INTEGER, id], seq: 0 });
    },
    after() {
      if (stack.length > 1) stack.pop();
    },
  });
  hook.enable();
  return {
    record(events, event) {
      const run = current();
      // The same file again with nothing made in between is the same step in either order.
      if (event.file !== undefined && run.lastFile === event.file && run.lastSeq === run.seq) return;
      events.push({ ...event, key: [...run.key, run.seq++] });
      run.lastFile = event.file;
      run.lastSeq = run.seq;
    },
    disable: () => hook.disable(),
  };
}

function compareKeys(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** Files entered, consecutive duplicates collapsed, and where in that list each stderr write happened. */
function sequenceOf(events) {
  const entries = [];
  const writes = [];
  for (const event of events) {
    if (event.write !== undefined) writes.push({ at: entries.length, text: event.write });
    else if (entries[entries.length - 1] !== event.file) entries.push(event.file);
  }
  return { entries, writes };
}

// ---------------------------------------------------------------------------------------------
// The scenario and the counting.

// Ten minutes ago, for every commit: traffic discovery leaves out branches idle for days, so a
// fixed date would age out of it; one date per run keeps the commits in the same order.
const COMMIT_DATE = new Date(Date.now() - 10 * 60_000).toISOString();

/** A fixed identity, one commit date and no user git config: every run builds the same repositories. */
function scenarioEnv(extra = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_') && !name.startsWith('AIRSPACE_')));
  return {
    ...env,
    GIT_AUTHOR_NAME: 'Trace Agent',
    GIT_AUTHOR_EMAIL: 'trace@example.invalid',
    GIT_COMMITTER_NAME: 'Trace Agent',
    GIT_COMMITTER_EMAIL: 'trace@example.invalid',
    GIT_AUTHOR_DATE: COMMIT_DATE,
    GIT_COMMITTER_DATE: COMMIT_DATE,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    NO_COLOR: '1',
    CI: '',
    // No detached graph build left running in a directory this script deletes.
    AIRSPACE_GRAPH_BACKGROUND: 'off',
    // A loaded machine must not cut the run short: the walk, not the budget, is measured.
    AIRSPACE_HOOKS_BUDGET_MS: '600000',
    ...extra,
  };
}

function git(cwd, ...args) {
  return execFileSync('git', args, { cwd, env: scenarioEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function writeFile(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** src/session.ts with `tag` on the line of `touch()` every agent edits. */
function session(tag) {
  const lines = ['export interface Session {', '  readonly id: string;', '  readonly seen: number;', '}', ''];
  for (const name of ['open', 'touch', 'close']) {
    lines.push(`export function ${name}(session: Session): Session {`);
    lines.push(name === 'touch' ? `  return { ...session, seen: session.seen + 1 }; // ${tag}` : `  return { ...session };`);
    lines.push('}', '');
  }
  return lines.join('\n');
}

function setUpScenario(root) {
  const seed = join(root, 'seed');
  const remote = join(root, 'remote.git');
  mkdirSync(seed);
  git(root, 'init', '-q', '--bare', '-b', 'main', remote);
  git(seed, 'init', '-q', '-b', 'main');
  writeFile(join(seed, 'src', 'session.ts'), session('trunk'));
  writeFile(join(seed, 'src', 'api.ts'), "import { touch, type Session } from './session.js';\n\nexport const ping = (s: Session): Session => touch(s);\n");
  writeFile(join(seed, 'package.json'), '{ "name": "trace-scenario", "type": "module" }\n');
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '--no-verify', '-m', 'seed');
  git(seed, 'push', '-q', remote, 'main');
  const peer = join(root, 'peer');
  const own = join(root, 'own');
  git(root, 'clone', '-q', remote, peer);
  git(root, 'clone', '-q', remote, own);
  git(peer, 'switch', '-q', '-c', PEER_BRANCH);
  writeFile(join(peer, 'src', 'session.ts'), session('peer'));
  git(peer, 'commit', '-q', '--no-verify', '-am', 'peer: touch counts twice');
  git(peer, 'push', '-q', '-u', 'origin', 'HEAD');
  git(own, 'switch', '-q', '-c', 'own/work');
  const checked = spawnSync(process.execPath, [BIN, 'check', '--fetch', '--json'], { cwd: own, env: scenarioEnv(), encoding: 'utf8' });
  if (checked.status !== 0) throw new Error(`trace-folders: check --fetch failed (${checked.status}): ${checked.stderr}`);
  writeFile(join(own, 'src', 'session.ts'), session('own'));
  git(own, 'add', '-A');
  return own;
}

/** src/ path of a dist/ file ('run/run-airspace.js' → 'run/run-airspace.ts'), with a warning when none exists. */
function sourceOf(distFile, warnings) {
  const stem = distFile.replace(/\.js$/, '');
  for (const ext of ['.ts', '.tsx', '.mts', '.js']) if (existsSync(join(SRC, stem + ext))) return stem + ext;
  warnings.add(`dist/${distFile} has no source under src/ (stale dist/? run npm run build:js)`);
  return `${stem}.ts`;
}

function folderOf(srcFile) {
  const dir = dirname(srcFile);
  return dir.split(sep).join('/');
}

/** The floor of a folder: its longest prefix in FLOORS; unknown folders count as side layers, with a warning. */
function floorOf(folder, warnings) {
  const parts = folder.split('/');
  for (let n = parts.length; n > 0; n--) {
    const key = parts.slice(0, n).join('/');
    if (Object.hasOwn(FLOORS, key)) return FLOORS[key];
  }
  warnings.add(`WARNING: folder src/${folder}/ has no floor in FLOORS (scripts/trace-folders.mjs): counted as a move, never as a climb`);
  return 'side';
}

function countWalk(files, warnings = new Set()) {
  const steps = [];
  let floor;
  let moves = 0;
  let climbs = 0;
  for (let i = 0; i < files.length; i++) {
    const folder = folderOf(files[i]);
    const here = floorOf(folder, warnings);
    const moved = i > 0 && folder !== steps[i - 1].folder;
    const climbed = moved && here !== 'side' && floor !== undefined && here > floor;
    if (moved) moves++;
    if (climbed) climbs++;
    if (here !== 'side') floor = here;
    steps.push({ file: files[i], folder, floor: here, moved, climbed });
  }
  return { distinct: new Set(files).size, entries: files.length, moves, climbs, steps, warnings };
}

function trace() {
  if (!existsSync(HOOK_ENTRY)) throw new Error(`trace-folders: ${HOOK_ENTRY} is missing: run npm run build:js (npm run trace:folders does)`);
  const root = mkdtempSync(join(tmpdir(), 'airspace-trace-folders-'));
  try {
    const own = setUpScenario(root);
    const out = join(root, 'trace.json');
    const env = { ...scenarioEnv(), AIRSPACE_TRACE_CALLS: process.env.AIRSPACE_TRACE_CALLS ?? 'all' };
    const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', out], { cwd: own, env, encoding: 'utf8' });
    if (run.status !== 0 || !existsSync(out)) throw new Error(`trace-folders: the traced pre-commit failed (${run.status}): ${run.stderr}`);
    return { ...JSON.parse(readFileSync(out, 'utf8')), stderr: run.stderr };
  } finally {
    rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}

/** One traced run, counted: the window up to the advisory, the whole call, and first entries only. */
function measure(order) {
  const run = trace();
  const traced = { ...run[order], exitCode: run.exitCode, stderr: run.stderr };
  const advisory = traced.writes.find((w) => w.text.includes(PEER_BRANCH));
  if (!advisory) throw new Error(`trace-folders: the pre-commit printed no advisory about ${PEER_BRANCH}:\n${traced.stderr}`);
  const warnings = new Set();
  const files = traced.entries.map((file) => sourceOf(file, warnings));
  const window = files.slice(0, advisory.at);
  const seen = new Set();
  return {
    exitCode: traced.exitCode,
    walk: countWalk(window, warnings),
    whole: countWalk(files, new Set()),
    firstEntries: countWalk(
      window.filter((file) => !seen.has(file) && seen.add(file)),
      new Set(),
    ),
    warnings,
  };
}

const numbersOf = ({ distinct, entries, moves, climbs }) => ({ distinct, entries, moves, climbs });

function main(args) {
  const option = (name, fallback) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : fallback;
  };
  const runs = Number(option('--runs', '3'));
  const order = option('--order', 'tree');
  const calls = option('--calls', 'all');
  if (calls !== 'all' && calls !== 'exported') throw new Error('trace-folders: --calls is all (the default) or exported');
  process.env.AIRSPACE_TRACE_CALLS = calls;
  if (!Number.isInteger(runs) || runs < 1 || runs % 2 === 0) throw new Error('trace-folders: --runs takes an odd whole number (the median is one of the runs)');
  if (order !== 'tree' && order !== 'time') throw new Error('trace-folders: --order is tree (the default) or time');
  // Every run starts from a fresh scenario. In tree order the runs agree (the ranges say so when
  // they do not); in time order a few moves differ with which git process answers first.
  const measured = Array.from({ length: runs }, () => measure(order)).sort((a, b) => a.walk.moves - b.walk.moves || a.walk.climbs - b.walk.climbs);
  const median = measured[(runs - 1) / 2];
  const range = (pick) => {
    const values = measured.map(pick);
    return `${Math.min(...values)}–${Math.max(...values)}`;
  };
  for (const warning of new Set(measured.flatMap((m) => [...m.warnings]))) console.error(warning);
  const { walk, whole, firstEntries } = median;
  if (args.includes('--json')) {
    const ranges = { moves: range((m) => m.walk.moves), climbs: range((m) => m.walk.climbs), entries: range((m) => m.walk.entries) };
    console.log(JSON.stringify({ runs, order, ...numbersOf(walk), ranges, wholeRun: numbersOf(whole), firstEntries: numbersOf(firstEntries) }, null, 2));
    return;
  }
  if (args.includes('--list')) {
    console.log('#   mark floor  src file (">>" a move between folders, "^^" a move that climbs back up a floor)');
    walk.steps.forEach((step, i) => {
      const mark = step.climbed ? '^^' : step.moved ? '>>' : '  ';
      console.log(`${String(i + 1).padStart(3)} ${mark}   ${String(step.floor).padEnd(5)}  src/${step.file}`);
    });
    const pairs = new Map();
    walk.steps.forEach((step, i) => {
      if (!step.climbed) return;
      const from = walk.steps.slice(0, i).findLast((s) => s.floor !== 'side');
      const key = `${from.folder} -> ${step.folder}`;
      pairs.set(key, (pairs.get(key) ?? 0) + 1);
    });
    console.log(`--- the advisory is printed here (pre-commit exit code ${median.exitCode}); after it, until runHook returns:`);
    for (const step of whole.steps.slice(walk.entries)) console.log(`         ${String(step.floor).padEnd(5)}  src/${step.file}`);
    console.log('');
    console.log('climbs by floor left -> folder entered:');
    for (const [pair, n] of [...pairs].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) console.log(`  ${String(n).padStart(3)}  ${pair}`);
    console.log('');
  }
  console.log(
    `pre-commit, runHook → printed advisory, ${order} order, ${calls === 'exported' ? 'exported functions only' : 'every function'} (median of ${runs} runs):`,
  );
  console.log(`  ${walk.distinct} distinct files entered, ${walk.entries} entries (${range((m) => m.walk.entries)})`);
  console.log(`  ${walk.moves} moves between folders (${range((m) => m.walk.moves)}), ${walk.climbs} climbs back up a floor (${range((m) => m.walk.climbs)})`);
  console.log(`  each file at its first entry only: ${firstEntries.entries} files, ${firstEntries.moves} moves, ${firstEntries.climbs} climbs`);
  console.log(`whole runHook call: ${whole.distinct} files, ${whole.entries} entries, ${whole.moves} moves, ${whole.climbs} climbs`);
}

if (isMainThread && process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args[0] === '--child') await child(args[1]);
  else main(args);
}
