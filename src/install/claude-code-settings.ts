import { createHash } from 'node:crypto';
import { readFile, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AirspaceError } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { git } from '../git/exec-git.js';
import { claudeCodeMessages } from '../messages/claude-code.js';

/**
 * `install --claude-code`: the PreToolUse hook of examples/claude-code/ merged into the worktree's
 * `.claude/settings.json` (created when absent; every other key kept; a second run changes
 * nothing). What was there before is recorded in this worktree's git dir
 * (`airspace/claude-code-settings.json`): `uninstall` puts those exact bytes back (or removes the
 * file and the `.claude` folder we created) as long as the file is still what we wrote; when
 * someone edited it since, only our entry is taken out and their edits stay.
 */
export type ClaudeCodeAction =
  | { readonly kind: 'added'; readonly path: string; readonly created: boolean }
  | { readonly kind: 'already-installed'; readonly path: string }
  | { readonly kind: 'restored'; readonly path: string; readonly removed: boolean }
  | { readonly kind: 'entry-removed'; readonly path: string };

const MATCHER = 'Edit|MultiEdit|Write|NotebookEdit';
/** How our entry is recognised: the example hook's script, wherever the package lives. */
const SCRIPT_TAIL = 'examples/claude-code/pre-edit.mjs';
const RECORD = 'claude-code-settings.json';
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Record {
  readonly version: 1;
  readonly path: string;
  /** The file's bytes before install (base64), or null when we created it. */
  readonly original: string | null;
  readonly createdDir: boolean;
  /** sha256 of the bytes install wrote: a match means nobody edited the file since. */
  readonly written: string;
}

type Settings = { [key: string]: unknown; hooks?: { [event: string]: unknown } };
interface Group {
  matcher?: unknown;
  hooks?: unknown;
}

export async function installClaudeCode(cwd: string): Promise<ClaudeCodeAction> {
  const { toplevel, gitDir } = await locate(cwd);
  const path = join(toplevel, '.claude', 'settings.json');
  const before = await readFile(path).catch(() => null);
  const settings = before === null ? {} : parseSettings(before, path);
  if (hasOurEntry(settings)) return { kind: 'already-installed', path };
  const createdDir = before === null && !(await exists(dirname(path)));
  const after = Buffer.from(`${JSON.stringify(withOurEntry(settings, hookCommand(toplevel)), null, 2)}\n`);
  const record: Record = { version: 1, path, original: before === null ? null : before.toString('base64'), createdDir, written: sha256(after) };
  await writeFileAtomic(join(gitDir, 'airspace', RECORD), Buffer.from(JSON.stringify(record)));
  await writeFileAtomic(path, after);
  return { kind: 'added', path, created: before === null };
}

/** Null when there is nothing of ours in the settings (nothing recorded, no entry). */
export async function uninstallClaudeCode(cwd: string): Promise<ClaudeCodeAction | null> {
  const { toplevel, gitDir } = await locate(cwd);
  const path = join(toplevel, '.claude', 'settings.json');
  const recordPath = join(gitDir, 'airspace', RECORD);
  const record = await readRecord(recordPath, path);
  const current = await readFile(path).catch(() => null);
  let action: ClaudeCodeAction | null = null;
  if (record !== null && current !== null && sha256(current) === record.written) {
    if (record.original === null) {
      await rm(path);
      if (record.createdDir) await rmdir(dirname(path)).catch(() => undefined); // not empty: someone added files
    } else await writeFileAtomic(path, Buffer.from(record.original, 'base64'));
    action = { kind: 'restored', path, removed: record.original === null };
  } else if (current !== null) {
    const settings = parseSettings(current, path);
    if (hasOurEntry(settings)) {
      await writeFileAtomic(path, Buffer.from(`${JSON.stringify(withoutOurEntry(settings), null, 2)}\n`));
      action = { kind: 'entry-removed', path };
    }
  }
  await rm(recordPath, { force: true });
  return action;
}

/**
 * The hook command. Inside the project (node_modules) it is spelled from `$CLAUDE_PROJECT_DIR`,
 * so a committed settings file works in every clone; elsewhere (a global install, a checkout) the
 * absolute path is the only one that works.
 */
function hookCommand(toplevel: string): string {
  const script = join(PACKAGE_ROOT, ...SCRIPT_TAIL.split('/'));
  const inside = relative(toplevel, script);
  const spelled = inside.startsWith('..') || inside === script ? script : `$CLAUDE_PROJECT_DIR/${inside.split(sep).join('/')}`;
  return `node "${spelled}"`;
}

function withOurEntry(settings: Settings, command: string): Settings {
  const hooks = { ...(settings.hooks ?? {}) };
  const groups = Array.isArray(hooks.PreToolUse) ? [...(hooks.PreToolUse as unknown[])] : [];
  groups.push({ matcher: MATCHER, hooks: [{ type: 'command', command, timeout: 30 }] });
  return { ...settings, hooks: { ...hooks, PreToolUse: groups } };
}

function withoutOurEntry(settings: Settings): Settings {
  const hooks = { ...(settings.hooks ?? {}) };
  const groups = (hooks.PreToolUse as Group[]).flatMap((group) => {
    if (!Array.isArray(group?.hooks)) return [group];
    const kept = (group.hooks as unknown[]).filter((hook) => !isOurs(hook));
    if (kept.length === group.hooks.length) return [group];
    return kept.length === 0 ? [] : [{ ...group, hooks: kept }];
  });
  if (groups.length > 0) hooks.PreToolUse = groups;
  else delete hooks.PreToolUse;
  const rest: Settings = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete rest.hooks;
  return rest;
}

function hasOurEntry(settings: Settings): boolean {
  const groups = settings.hooks?.PreToolUse;
  return Array.isArray(groups) && groups.some((group: Group) => Array.isArray(group?.hooks) && group.hooks.some(isOurs));
}

function isOurs(hook: unknown): boolean {
  const command = (hook as { command?: unknown } | null)?.command;
  return typeof command === 'string' && command.includes(SCRIPT_TAIL);
}

function parseSettings(bytes: Buffer, path: string): Settings {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new AirspaceError('config', 'claude-settings-invalid', claudeCodeMessages.notJson(path));
  }
  const hooks = (parsed as Settings | null)?.hooks;
  const shapeOk =
    typeof parsed === 'object' &&
    parsed !== null &&
    !Array.isArray(parsed) &&
    (hooks === undefined || (typeof hooks === 'object' && hooks !== null && !Array.isArray(hooks)));
  const preOk = hooks?.PreToolUse === undefined || Array.isArray(hooks.PreToolUse);
  if (!shapeOk || !preOk) throw new AirspaceError('config', 'claude-settings-invalid', claudeCodeMessages.unexpectedShape(path));
  return parsed as Settings;
}

async function readRecord(recordPath: string, settingsPath: string): Promise<Record | null> {
  try {
    const record = JSON.parse(await readFile(recordPath, 'utf8')) as Partial<Record>;
    const ok =
      record.version === 1 &&
      record.path === settingsPath &&
      typeof record.written === 'string' &&
      (record.original === null || typeof record.original === 'string');
    return ok ? (record as Record) : null;
  } catch {
    return null;
  }
}

async function locate(cwd: string): Promise<{ toplevel: string; gitDir: string }> {
  const [toplevel = '', gitDir = ''] = (await git(['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-dir'], { cwd })).split('\n');
  if (!toplevel || !gitDir) throw new AirspaceError('usage', 'claude-needs-worktree', claudeCodeMessages.needsWorktree);
  return { toplevel, gitDir };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
