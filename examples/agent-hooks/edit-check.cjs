// The edit check every harness adapter shares (examples/claude-code, examples/cursor,
// examples/gemini, examples/codex): given the files the agent is about to edit, declare them as
// intent (so peers see us coming), run the check, and decide. An adapter only reads its harness's
// input (which files, which folder) and writes its harness's answer; how to decide is here, once:
// only a Resolution Advisory where this agent must steer for one of these files refuses the edit
// (and an RA needs evidence: docs/decisions/blocking-rule.md); a Traffic Advisory lets it through
// with the traffic as a message.
//
// First it asks the repository's resident process (docs/decisions/resident.md) over its socket:
// one Node process, no CLI start-up, the same intent store and the same check run warm. When there
// is none (or it is of another build, busy, or silent), the CLI does it — and starts one.
//
// Our own failures (malformed input, a missing CLI, a failing check) never stop the agent: one line
// on stderr and exit 1, which each of these harnesses treats as a non-blocking error.
//
// CommonJS, so the Claude Code entry (examples/claude-code/pre-edit.cjs) starts no ES module: Node
// starts a CommonJS script sooner (docs/decisions/resident.md, "The CommonJS hot path"). The ESM
// adapters import it through examples/agent-hooks/edit-check.mjs, which re-exports it; Node reads
// the names from the `module.exports = { … }` at the end, so that stays a plain object of names.
'use strict';
const { existsSync, realpathSync } = require('node:fs');
const { basename, delimiter, dirname, isAbsolute, join, relative, resolve, sep } = require('node:path');

const DEFAULT_TTL_MINUTES = 30;
// The resident's client (bundled in the package this script ships in; a copy elsewhere has none),
// loaded before the harness's input is read: on the hot path it is the first thing the check
// needs. node:child_process waits for the path that needs it (git and the CLI).
const bundledClient = (() => {
  try {
    return require('../../dist/ask-resident.bundle.cjs');
  } catch {
    return null;
  }
})();

/** More input than any tool call carries: a harness never sends this much, an attacker might. */
const MAX_INPUT_BYTES = 8 * 1024 * 1024;
/** At most this many files from one tool call are declared and checked (a patch may name many). */
const MAX_FILES = 200;

/** Our own failure: one line for the user, the harnesses' non-blocking exit. */
function failOpen(reason) {
  process.stderr.write(`airspace-hooks: ${reason}, edit not checked\n`);
  process.exit(1);
}

/** The hook input: one JSON object on stdin. */
async function readHookInput(harness) {
  const text = await new Promise((done) => {
    let read = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk) => {
      read += chunk;
      if (read.length > MAX_INPUT_BYTES) failOpen(`the hook input is larger than ${MAX_INPUT_BYTES} bytes`);
    });
    process.stdin.on('end', () => done(read));
    process.stdin.on('error', () => done(read));
  });
  let input;
  try {
    input = JSON.parse(text || '{}');
  } catch {
    failOpen(`the hook input is not JSON (expected ${harness} hook input on stdin)`);
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) failOpen('the hook input is not a JSON object');
  return input;
}

/** The first of `keys` that holds a non-empty string in `object`. */
function stringField(object, ...keys) {
  if (typeof object !== 'object' || object === null) return null;
  for (const key of keys) if (typeof object[key] === 'string' && object[key] !== '') return object[key];
  return null;
}

/** `path` with symlinks resolved as far as it exists (a file about to be written may not). */
function real(path) {
  let head = path;
  const tail = [];
  while (!existsSync(head) && dirname(head) !== head) {
    tail.unshift(basename(head));
    head = dirname(head);
  }
  try {
    return join(realpathSync(head), ...tail);
  } catch {
    return path;
  }
}

/**
 * The CLI: $AIRSPACE_HOOKS_BIN, else the package this script ships in (what `install --<harness>`
 * points at), else where the git shims look: the worktree's node_modules, PATH, and the main
 * worktree's node_modules (next to the common git dir) — a fresh linked worktree has none.
 */
function findCli(toplevel, commonDir) {
  if (process.env.AIRSPACE_HOOKS_BIN) return [process.env.AIRSPACE_HOOKS_BIN, []];
  const bundled = join(__dirname, '..', '..', 'bin', 'airspace-hooks.js');
  if (existsSync(bundled)) return [process.execPath, [bundled]];
  const candidates = [
    join(toplevel, 'node_modules', '.bin', 'airspace-hooks'),
    ...(process.env.PATH ?? '')
      .split(delimiter)
      .filter((dir) => dir !== '')
      .map((dir) => join(dir, 'airspace-hooks')),
    join(commonDir, '..', 'node_modules', '.bin', 'airspace-hooks'),
  ];
  const found = candidates.find((path) => existsSync(path));
  return found ? [found, []] : null;
}

/** Peer text is untrusted: no control characters reach the harness's terminal or the model. */
const printable = (text) => String(text).replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');

/**
 * The check. `cwd`: the folder the harness runs in (targets relative to it); `targets`: the paths
 * the tool call will write, or null when the call names none we can read (then any RA where we
 * must steer refuses it: we cannot tell that the call stays clear of it).
 *
 * Resolves to `{ verdict: 'outside' }` (not a git worktree, or every target outside it: nothing to
 * protect), or `{ verdict: 'clear' | 'traffic' | 'steer', files, lines }`: `lines` one per advisory.
 */
function editCheck(call) {
  return checkEdit(call).catch((error) => failOpen(`unexpected error (${printable(error?.message ?? error)})`));
}

async function checkEdit({ cwd, targets }) {
  const ttlMinutes = Number(process.env.AIRSPACE_HOOKS_INTENT_TTL_MINUTES ?? DEFAULT_TTL_MINUTES);
  // The resident first, found from the file system: no git process on the hot path. Anything less
  // than a plain answer takes the path below, which asks git where we are.
  const client = residentClient();
  const near = client?.findWorktree(cwd, process.env) ?? null;
  const nearFiles = near !== null ? targetFiles(near.toplevel, cwd, targets) : 'outside';
  if (nearFiles !== 'outside') {
    const resident = await askResident(client, near.toplevel, near.commonDir, nearFiles, ttlMinutes);
    if (resident !== null) return await decide(resident.report, nearFiles, resident.withdraw);
  }

  const { spawnSync } = require('node:child_process');
  const where = spawnSync('git', ['rev-parse', '--show-toplevel', '--path-format=absolute', '--git-common-dir'], { cwd, encoding: 'utf8' });
  if (where.error) failOpen(`git could not run (${where.error.code ?? where.error.message})`);
  if (where.status !== 0) return { verdict: 'outside' };
  const [toplevel = '', commonDir = ''] = where.stdout.split('\n');
  const files = targetFiles(toplevel, cwd, targets);
  if (files === 'outside') return { verdict: 'outside' };
  if (near === null || near.toplevel !== toplevel) {
    const resident = await askResident(client, toplevel, commonDir, files, ttlMinutes);
    if (resident !== null) return await decide(resident.report, files, resident.withdraw);
  }

  const cli = findCli(toplevel, commonDir);
  if (cli === null) failOpen('the airspace-hooks CLI is not installed here (fix: npm install)');
  const [command, prefix] = cli;
  const run = (args) => spawnSync(command, [...prefix, ...args], { cwd: toplevel, encoding: 'utf8', timeout: 25_000 });
  const failed = (what, result) => {
    const why = result.error ? (result.error.code ?? result.error.message) : `exit ${result.status ?? result.signal}`;
    const detail = (result.stderr ?? '').trim().split('\n')[0] ?? '';
    failOpen(`${what} failed (${why}${detail ? `: ${printable(detail)}` : ''})`);
  };
  // `./` keeps a name such as `-x.ts` from reading as an option.
  const asArgument = (path) => (path.startsWith('-') ? `./${path}` : path);

  let added = [];
  if (files !== null) {
    const ttl = process.env.AIRSPACE_HOOKS_INTENT_TTL_MINUTES ?? String(DEFAULT_TTL_MINUTES);
    const declared = run(['intent', 'add', '--ttl', ttl, '--json', ...files.map(asArgument)]);
    if (declared.error || declared.status !== 0) failed('intent add', declared);
    try {
      added = JSON.parse(declared.stdout).added.filter((path) => files.includes(path));
    } catch {
      added = [];
    }
  }
  const check = run(['check', '--json']);
  if (check.error || (check.status !== 0 && check.status !== 1)) failed('check', check);
  let report;
  try {
    report = JSON.parse(check.stdout);
  } catch {
    failOpen('check printed no JSON report');
  }
  if (!usableReport(report)) failOpen('check printed an unexpected report');
  return await decide(report, files, async () => {
    if (added.length > 0) run(['intent', 'clear', ...added.map(asArgument)]);
  });
}

/**
 * The targets repo-relative (the report's sharedFiles), whatever the harness's cwd; null when the
 * call names none; 'outside' when every one is outside this worktree. git prints the top level with
 * symlinks resolved; so is each target.
 */
function targetFiles(toplevel, cwd, targets) {
  if (targets === null) return null;
  const files = [];
  for (const target of targets.slice(0, MAX_FILES)) {
    const path = relative(toplevel, real(resolve(cwd, target)));
    if (path === '' || path === '..' || path.startsWith(`..${sep}`) || isAbsolute(path)) continue; // outside this worktree
    const file = path.split(sep).join('/');
    if (!files.includes(file)) files.push(file);
  }
  return files.length === 0 ? 'outside' : files;
}

/** The resident's client; null when there is none or it is unwanted. */
function residentClient() {
  return bundledClient?.residentWanted(process.env) ? bundledClient : null;
}

/** What the decision reads of a check report: this agent's id and the advisories. */
const usableReport = (report) => typeof report?.scanned?.ownship === 'string' && Array.isArray(report.advisories);

/**
 * The resident process's answer to `intent add` + `check --json`, or null to take the CLI path.
 * Its question names one file (or none); a call that writes several (a Codex patch) takes the CLI
 * path. The client ships in the package this script belongs to; a copy of the script elsewhere has
 * none.
 */
async function askResident(client, toplevel, commonDir, files, ttlMinutes) {
  if (client === null) return null;
  if (files !== null && files.length !== 1) return null;
  if (!Number.isFinite(ttlMinutes) || ttlMinutes <= 0) return null; // the CLI says what is wrong with it
  const file = files === null ? null : files[0];
  const env = client.plainEnvironment(process.env);
  const ask = (request) => client.askResident(commonDir, { cwd: toplevel, env, ...request });
  const asked = await ask({ type: 'edit', file, ttlMs: ttlMinutes * 60_000 });
  if (!asked.ok || !usableReport(asked.answer?.report)) return null;
  const added = Array.isArray(asked.answer.added) && asked.answer.added.includes(file);
  return {
    report: asked.answer.report,
    withdraw: async () => {
      if (added) await ask({ type: 'intent-clear', path: file });
    },
  };
}

/** The verdict on `report` for `files` (null: the call names none); `withdraw` takes back the intent this call declared. */
async function decide(report, files, withdraw) {
  const own = report.scanned.ownship;
  const lines = [];
  let steer = false;
  for (const link of report.advisories) {
    const shared = Array.isArray(link.sharedFiles) ? link.sharedFiles.map((f) => f.path) : [];
    const touches = files === null || shared.some((path) => files.includes(path));
    const mustSteer = link.level === 'RA' && link.steer === own;
    if (mustSteer && touches) steer = true;
    const peer = link.a === own ? link.b : link.a;
    const risk = typeof link.risk === 'number' ? link.risk.toFixed(2) : '?';
    lines.push(
      printable(`${link.level} with ${peer} (risk ${risk}, ${link.driver}): ${shared.join(', ')}`) +
        (link.level === 'RA' ? (mustSteer ? ' — you must steer: pick other files or coordinate first.' : ' — you hold course; they were told to steer.') : ''),
    );
  }
  if (steer) {
    // The edit does not happen: the intent this call declared must not warn peers about it.
    await withdraw();
    return { verdict: 'steer', files: files ?? [], lines };
  }
  return { verdict: lines.length > 0 ? 'traffic' : 'clear', files: files ?? [], lines };
}

/** The one-paragraph texts adapters hand to their harness. */
function describe(result) {
  const what = result.files.length > 0 ? result.files.join(', ') : 'this edit';
  if (result.verdict === 'steer') return `airspace-hooks: editing ${what} would collide with another agent.\n${result.lines.join('\n')}`;
  return `airspace-hooks traffic:\n${result.lines.join('\n')}`;
}

/** Write the harness's answer and end the process. */
function answer({ stdout = '', stderr = '', exit = 0 }) {
  if (stdout !== '') process.stdout.write(stdout.endsWith('\n') ? stdout : `${stdout}\n`);
  if (stderr !== '') process.stderr.write(stderr.endsWith('\n') ? stderr : `${stderr}\n`);
  process.exit(exit);
}

module.exports = { failOpen, readHookInput, stringField, editCheck, describe, answer };
