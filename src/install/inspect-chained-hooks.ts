import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isExecutable } from './find-cli.js';
import { readFingerprint } from './fingerprint.js';
import { ORIGINAL_SUFFIX } from './hooks-dir-shim.js';
import { BLOCK_START } from './husky-block.js';
import { HOOK_NAMES, type HookName } from './types.js';

/**
 * Commands git runs before ours in a worktree that cannot work there, so the commit or push fails
 * before airspace-hooks runs. The case seen (eslint, yorkie): a hook manager that writes the shared
 * hooks dir with a path into the worktree's own node_modules (`node "./node_modules/yorkie/src/runner.js"`),
 * chained by our shim as `<hook>.airspace-original`; a linked worktree has no node_modules until
 * someone installs there, so the chained hook fails ("Cannot find module") and ours never runs.
 * The same goes for a manager's hook that runs our CLI through a runner that looks only in the
 * worktree (`npx --no-install airspace-hooks`, `pnpm exec`: what our snippets said before they
 * named the main worktree's bin). Only what is certain to fail is reported: a path relative to the
 * worktree, or such a runner, where the worktree has no node_modules at all.
 */
export interface FailingChain {
  readonly hook: HookName;
  /** The file whose commands run before ours (or run ours through such a runner). */
  readonly path: string;
}

export function failingChains(worktree: string, hooksDir: string): FailingChain[] {
  if (existsSync(join(worktree, 'node_modules'))) return [];
  const failing: FailingChain[] = [];
  for (const hook of HOOK_NAMES) {
    const before = commandsBeforeOurs(join(hooksDir, hook));
    if (before !== null && needsOwnNodeModules(before.text) && !exitsFirst(before.text, worktree, hook)) failing.push({ hook, path: before.path });
  }
  return failing;
}

/**
 * yorkie and husky ≤ 3 write every hook, and each one ends at once (`has_hook_script <hook> || exit 0`)
 * when the worktree's package.json names no command for it: eslint's pre-push never reaches the runner.
 */
function exitsFirst(text: string, worktree: string, hook: HookName): boolean {
  if (!/^\s*has_hook_script\s+\S+\s*\|\|\s*exit\s+0\b/m.test(text)) return false;
  const pkg = readText(join(worktree, 'package.json'));
  return pkg === null || !new RegExp(`"${hook}"\\s*:`).test(pkg);
}

/** The commands that run before ours in the hook at `path`, and the file they are in; null when nothing runs first. */
function commandsBeforeOurs(path: string): { path: string; text: string } | null {
  const text = readText(path);
  if (text === null) return null;
  // Our shim runs the hook it replaced first, whole.
  if (readFingerprint(text) !== null && !text.includes(BLOCK_START)) {
    const original = `${path}${ORIGINAL_SUFFIX}`;
    const chained = isExecutable(original) ? readText(original) : null;
    return chained === null ? null : { path: original, text: chained };
  }
  // A script that calls us (husky's with our block, simple-git-hooks' command): what comes first.
  const block = text.indexOf(BLOCK_START);
  const at = block >= 0 ? block : text.indexOf('airspace-hooks hook');
  return at > 0 ? { path, text: text.slice(0, at) } : null;
}

/** A path into the worktree's own node_modules (not one built from the common dir), or a runner that looks only there, right before our command. */
const RELATIVE_NODE_MODULES = /(?:^|[\s"'`=(;|&])(?:\.\/)?node_modules\//;
const WORKTREE_RUNNER = /(?:^|[\s"'`=(;|&])(?:npx(?:\s+--no-install)?|pnpm\s+exec|bunx)\s+$/;

function needsOwnNodeModules(text: string): boolean {
  const code = text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n');
  return RELATIVE_NODE_MODULES.test(code) || WORKTREE_RUNNER.test(code);
}

function readText(path: string): string | null {
  try {
    return statSync(path).isFile() ? readFileSync(path, 'utf8').slice(0, 100_000) : null;
  } catch {
    return null;
  }
}
