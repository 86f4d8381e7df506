import { chmodSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readFingerprint, stampFingerprint } from './fingerprint.js';
import { packageVersion } from './package-files.js';
import type { HookAction, HookName, UninstallAction } from './types.js';

/**
 * Our marked block in a husky script (`.husky/pre-commit`, `.husky/pre-push`). husky owns
 * core.hooksPath, so we never touch the hooks dir; we append to the user's script, which husky
 * runs with `sh -e` and node_modules/.bin on PATH. The fingerprint line records how the block
 * was added (`file=created|appended|joined`) so removal gives back the exact previous bytes.
 */
export const BLOCK_START = '# >>> airspace-hooks >>>';
export const BLOCK_END = '# <<< airspace-hooks <<<';

type Placement = 'created' | 'appended' | 'joined';

export function blockText(hook: HookName, placement: Placement): string {
  const verb = hook === 'pre-push' ? 'push' : 'commit';
  const lines = [
    BLOCK_START,
    '# airspace-hooks:fingerprint',
    '# Added by `npx airspace-hooks install`, removed by `npx airspace-hooks uninstall`. Bypass: AIRSPACE_HOOKS=0.',
    'if [ "${AIRSPACE_HOOKS-}" != "0" ]; then',
    '  airspace_cli=node_modules/.bin/airspace-hooks',
    // A fresh linked worktree has no node_modules: the main worktree's (next to the common git
    // dir) is the last resort, as in the shims (hooks/pre-commit).
    '  [ -x "$airspace_cli" ] || airspace_cli=$(command -v airspace-hooks) ||',
    '    airspace_cli=$(git rev-parse --path-format=absolute --git-common-dir 2>/dev/null)/../node_modules/.bin/airspace-hooks',
    '  if [ -x "$airspace_cli" ]; then',
    // pre-commit: the resident's answer for this very state, served without starting Node (bin/airspace-hooks-ready).
    ...(hook === 'pre-commit'
      ? [
          '    if [ $# -eq 0 ] && [ -x "${airspace_cli%/*}/airspace-hooks-ready" ] && "${airspace_cli%/*}/airspace-hooks-ready" pre-commit; then :; else',
          `      "$airspace_cli" hook ${hook} "$@" || exit $?`,
          '    fi',
        ]
      : [`    "$airspace_cli" hook ${hook} "$@" || exit $?`]),
    '  else',
    `    echo "airspace-hooks: not installed here, ${verb} not checked (fix: npm install, or npx airspace-hooks uninstall)" >&2`,
    '  fi',
    'fi',
    BLOCK_END,
  ];
  return stampFingerprint(`${lines.join('\n')}\n`, packageVersion(), { file: placement });
}

interface Region {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

function findBlock(content: string): Region | null {
  const after = content.indexOf(`\n${BLOCK_START}`);
  const start = content.startsWith(BLOCK_START) ? 0 : after < 0 ? -1 : after + 1;
  if (start < 0) return null;
  const endMarker = content.indexOf(BLOCK_END, start);
  if (endMarker < 0) return null;
  let end = endMarker + BLOCK_END.length;
  if (content[end] === '\n') end += 1;
  return { start, end, text: content.slice(start, end) };
}

export function addHuskyBlock(scriptsDir: string, hook: HookName, force: boolean): HookAction {
  const path = join(scriptsDir, hook);
  const content = readIfPresent(path);
  if (content === null) {
    // husky 9 runs scripts with `sh`; the shebang and mode keep husky 4–8 (git runs them) working.
    writeFileSync(path, `#!/usr/bin/env sh\n${blockText(hook, 'created')}`, { mode: 0o755 });
    chmodSync(path, 0o755);
    return { kind: 'husky-block-added', hook, path, createdFile: true };
  }
  const region = findBlock(content);
  if (region === null) {
    const placement: Placement = content === '' || content.endsWith('\n') ? 'appended' : 'joined';
    writeFileSync(path, content + (placement === 'joined' ? '\n' : '') + blockText(hook, placement));
    return { kind: 'husky-block-added', hook, path, createdFile: false };
  }
  const fingerprint = readFingerprint(region.text);
  const placement = (fingerprint?.attributes.file as Placement | undefined) ?? 'appended';
  const desired = blockText(hook, placement);
  if (region.text === desired) return { kind: 'already-installed', hook, path };
  if (fingerprint?.intact !== true && !force) return { kind: 'modified-kept', hook, path };
  writeFileSync(path, content.slice(0, region.start) + desired + content.slice(region.end));
  return fingerprint?.intact === true ? { kind: 'updated', hook, path, fromVersion: fingerprint.version } : { kind: 'modified-replaced', hook, path };
}

export function removeHuskyBlock(scriptsDir: string, hook: HookName): UninstallAction | null {
  const path = join(scriptsDir, hook);
  const content = readIfPresent(path);
  const region = content === null ? null : findBlock(content);
  if (content === null || region === null) return null;
  const fingerprint = readFingerprint(region.text);
  if (fingerprint?.intact !== true) return { kind: 'modified-kept', hook, path };
  const placement = fingerprint.attributes.file;
  const before = content.slice(0, placement === 'joined' && region.start > 0 ? region.start - 1 : region.start);
  const rest = before + content.slice(region.end);
  if (placement === 'created' && rest.replace(/^#!.*\n?/, '').trim() === '') {
    unlinkSync(path);
    return { kind: 'husky-block-removed', hook, path, deletedFile: true };
  }
  writeFileSync(path, rest);
  return { kind: 'husky-block-removed', hook, path, deletedFile: false };
}

export interface BlockState {
  readonly path: string;
  readonly present: boolean;
  readonly intact: boolean;
  readonly version: string | null;
  /** A top-level `exit` before our block: the user's script ends there and our check never runs. */
  readonly unreachable: boolean;
}

/** An unindented `exit` line ends a husky script (husky runs it with `sh -e`); indented ones sit in branches. */
const TOP_LEVEL_EXIT = /^exit(\s|;|$)/m;

export function huskyBlockState(scriptsDir: string, hook: HookName): BlockState {
  const path = join(scriptsDir, hook);
  const content = readIfPresent(path);
  const region = content === null ? null : findBlock(content);
  const fingerprint = region === null ? null : readFingerprint(region.text);
  const unreachable = region !== null && content !== null && TOP_LEVEL_EXIT.test(content.slice(0, region.start));
  return { path, present: region !== null, intact: fingerprint?.intact ?? false, version: fingerprint?.version ?? null, unreachable };
}

function readIfPresent(path: string): string | null {
  if (!(statSync(path, { throwIfNoEntry: false })?.isFile() ?? false)) return null;
  return readFileSync(path, 'utf8');
}
