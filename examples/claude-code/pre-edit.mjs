#!/usr/bin/env node
// Claude Code PreToolUse hook: before the agent edits a file, declare it as intent (so peers see
// us coming) and check the airspace. Claude Code's contract: exit 2 blocks the tool call and feeds
// stderr to the model; exit 0 lets it run (stdout is shown in the transcript); any other exit is a
// non-blocking error (stderr shown to the user, the edit goes ahead). Our own failures are that:
// one line, exit 1 — they never stop the agent, and never print a stack trace.
//
// First it asks the repository's resident process (docs/decisions/resident.md) over its socket:
// one Node process, no CLI start-up, the same intent store and the same check run warm. When
// there is none (or it is of another build, busy, or silent), the CLI does it — and starts one.
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const DEFAULT_TTL_MINUTES = 30;

/** Our own failure: one line for the user, a non-blocking exit. */
function fail(reason) {
  process.stderr.write(`airspace-hooks: ${reason}, edit not checked\n`);
  process.exit(1);
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

const isFile = (path) => existsSync(path);

/**
 * The CLI: $AIRSPACE_HOOKS_BIN, else the package this script ships in (install --claude-code points
 * here), else where the git shims look (hooks/pre-commit): the worktree's node_modules, PATH, and
 * the main worktree's node_modules (next to the common git dir) — a fresh linked worktree has none.
 */
function findCli(toplevel, commonDir) {
  if (process.env.AIRSPACE_HOOKS_BIN) return [process.env.AIRSPACE_HOOKS_BIN, []];
  const bundled = fileURLToPath(new URL('../../bin/airspace-hooks.js', import.meta.url));
  if (isFile(bundled)) return [process.execPath, [bundled]];
  const candidates = [
    join(toplevel, 'node_modules', '.bin', 'airspace-hooks'),
    ...(process.env.PATH ?? '')
      .split(delimiter)
      .filter((dir) => dir !== '')
      .map((dir) => join(dir, 'airspace-hooks')),
    join(commonDir, '..', 'node_modules', '.bin', 'airspace-hooks'),
  ];
  const found = candidates.find(isFile);
  return found ? [found, []] : null;
}

async function main() {
  const text = await new Promise((done) => {
    let read = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk) => (read += chunk));
    process.stdin.on('end', () => done(read));
    process.stdin.on('error', () => done(read));
  });
  let input;
  try {
    input = JSON.parse(text || '{}');
  } catch {
    fail('the hook input is not JSON (expected Claude Code PreToolUse input on stdin)');
  }
  if (typeof input !== 'object' || input === null) fail('the hook input is not a JSON object');
  const cwd = typeof input.cwd === 'string' && input.cwd !== '' ? input.cwd : process.cwd();
  const target = input.tool_input?.file_path ?? input.tool_input?.notebook_path;

  const where = spawnSync('git', ['rev-parse', '--show-toplevel', '--path-format=absolute', '--git-common-dir'], { cwd, encoding: 'utf8' });
  if (where.error) fail(`git could not run (${where.error.code ?? where.error.message})`);
  if (where.status !== 0) process.exit(0); // not a git worktree: nothing to protect
  const [toplevel = '', commonDir = ''] = where.stdout.split('\n');
  // Paths are compared repo-relative (the report's sharedFiles), whatever Claude Code's cwd: it
  // follows the agent's `cd`. git prints the toplevel with symlinks resolved; so is the target.
  let file = null;
  if (typeof target === 'string' && target !== '') {
    const path = relative(toplevel, real(resolve(cwd, target)));
    if (path === '' || path === '..' || path.startsWith(`..${sep}`) || isAbsolute(path)) process.exit(0); // outside this worktree
    file = path.split(sep).join('/');
  }

  const ttlMinutes = Number(process.env.AIRSPACE_HOOKS_INTENT_TTL_MINUTES ?? DEFAULT_TTL_MINUTES);
  const resident = await askResident(toplevel, commonDir, file, ttlMinutes);
  if (resident !== null) {
    await decide(resident.report, file, resident.withdraw);
    return;
  }

  const cli = findCli(toplevel, commonDir);
  if (cli === null) fail('the airspace-hooks CLI is not installed here (fix: npm install)');
  const [command, prefix] = cli;
  const run = (args) => spawnSync(command, [...prefix, ...args], { cwd: toplevel, encoding: 'utf8', timeout: 25_000 });
  const failed = (what, result) => {
    const why = result.error ? (result.error.code ?? result.error.message) : `exit ${result.status ?? result.signal}`;
    const detail = (result.stderr ?? '').trim().split('\n')[0] ?? '';
    fail(`${what} failed (${why}${detail ? `: ${detail}` : ''})`);
  };

  // `./` keeps a name such as `-x.ts` from reading as an option.
  const asArgument = (path) => (path.startsWith('-') ? `./${path}` : path);
  let withdraw = false;
  if (file !== null) {
    const ttl = process.env.AIRSPACE_HOOKS_INTENT_TTL_MINUTES ?? String(DEFAULT_TTL_MINUTES);
    const declared = run(['intent', 'add', '--ttl', ttl, '--json', asArgument(file)]);
    if (declared.error || declared.status !== 0) failed('intent add', declared);
    try {
      withdraw = JSON.parse(declared.stdout).added.includes(file);
    } catch {
      withdraw = false;
    }
  }
  const check = run(['check', '--json']);
  if (check.error || (check.status !== 0 && check.status !== 1)) failed('check', check);
  let report;
  try {
    report = JSON.parse(check.stdout);
  } catch {
    fail('check printed no JSON report');
  }

  await decide(report, file, () => {
    if (withdraw) run(['intent', 'clear', asArgument(file)]);
  });
}

/**
 * The resident process's answer to `intent add` + `check --json`, or null to take the CLI path.
 * The client ships in the package this script belongs to; a copy of the script elsewhere has none.
 */
async function askResident(toplevel, commonDir, file, ttlMinutes) {
  if (!Number.isFinite(ttlMinutes) || ttlMinutes <= 0) return null; // the CLI says what is wrong with it
  let client;
  try {
    client = await import(new URL('../../dist/app/ask-resident.js', import.meta.url).href);
  } catch {
    return null;
  }
  if (!client.residentWanted(process.env)) return null;
  const env = Object.fromEntries(Object.entries(process.env).filter(([, value]) => value !== undefined));
  const ask = (request) => client.askResident(commonDir, { cwd: toplevel, env, ...request });
  const asked = await ask({ type: 'edit', file, ttlMs: ttlMinutes * 60_000 });
  if (!asked.ok || typeof asked.answer?.report !== 'object' || asked.answer.report === null) return null;
  const added = Array.isArray(asked.answer.added) && asked.answer.added.includes(file);
  return {
    report: asked.answer.report,
    withdraw: async () => {
      if (added) await ask({ type: 'intent-clear', path: file });
    },
  };
}

/** Exit 2 with the advisories when this agent must steer off `file`, else print them and exit 0. */
async function decide(report, file, withdraw) {
  const own = report.scanned.ownship;
  const mine = (link) => (link.a === own ? link.b : link.a);
  const lines = [];
  let block = false;
  for (const link of report.advisories) {
    const touches = file === null || link.sharedFiles.some((f) => f.path === file);
    if (link.level === 'RA' && link.steer === own && touches) block = true;
    const files = link.sharedFiles.map((f) => f.path).join(', ');
    lines.push(
      `${link.level} with ${mine(link)} (risk ${link.risk.toFixed(2)}, ${link.driver}): ${files}` +
        (link.level === 'RA' ? (link.steer === own ? ' — you must steer: pick other files or coordinate first.' : ' — you hold course; they were told to steer.') : ''),
    );
  }
  if (block) {
    // The edit does not happen: the intent this call declared must not warn peers about it.
    await withdraw();
    process.stderr.write(`airspace-hooks: editing ${file} would collide with another agent.\n${lines.join('\n')}\n`);
    process.exit(2);
  }
  if (lines.length > 0) process.stdout.write(`airspace-hooks traffic:\n${lines.join('\n')}\n`);
  process.exit(0);
}

main().catch((error) => fail(`unexpected error (${error?.message ?? error})`));
