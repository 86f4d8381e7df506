#!/usr/bin/env node
// Claude Code PreToolUse hook: before the agent edits a file, declare it as intent (so peers see
// us coming) and check the airspace. Claude Code's contract: exit 2 blocks the tool call and feeds
// stderr back to the model; exit 0 lets it run (stdout is shown in the transcript).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const input = JSON.parse(await new Promise((resolve) => {
  let text = '';
  process.stdin.on('data', (chunk) => (text += chunk));
  process.stdin.on('end', () => resolve(text || '{}'));
}));
const cwd = input.cwd ?? process.cwd();
const target = input.tool_input?.file_path ?? input.tool_input?.notebook_path;
// The CLI of the package this script ships in (install --claude-code points here), else the PATH's.
const bundledCli = fileURLToPath(new URL('../../bin/airspace-hooks.js', import.meta.url));
const [cli, prefix] = process.env.AIRSPACE_HOOKS_BIN ? [process.env.AIRSPACE_HOOKS_BIN, []] : existsSync(bundledCli) ? [process.execPath, [bundledCli]] : ['airspace-hooks', []];
const run = (args) => spawnSync(cli, [...prefix, ...args], { cwd, encoding: 'utf8', timeout: 25_000 });

if (target) run(['intent', 'add', relative(cwd, target)]);
const check = run(['check', '--json']);
if (check.error || (check.status !== 0 && check.status !== 1)) process.exit(0); // never stop the agent on our own failure

const report = JSON.parse(check.stdout);
const own = report.scanned.ownship;
const file = target ? relative(cwd, target) : null;
const mine = (link) => (link.a === own ? link.b : link.a);
const lines = [];
let block = false;
for (const link of report.advisories) {
  const touches = file === null || link.sharedFiles.some((f) => f.path === file);
  if (link.level === 'RA' && link.steer === own && touches) block = true;
  const files = link.sharedFiles.map((f) => f.path).join(', ');
  lines.push(`${link.level} with ${mine(link)} (risk ${link.risk.toFixed(2)}, ${link.driver}): ${files}` +
    (link.level === 'RA' ? (link.steer === own ? ' — you must steer: pick other files or coordinate first.' : ' — you hold course; they were told to steer.') : ''));
}
if (block) {
  process.stderr.write(`airspace-hooks: editing ${file} would collide with another agent.\n${lines.join('\n')}\n`);
  process.exit(2);
}
if (lines.length > 0) process.stdout.write(`airspace-hooks traffic:\n${lines.join('\n')}\n`);
process.exit(0);
