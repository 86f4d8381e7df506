import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AirspaceError } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { git, gitZ } from '../git/exec-git.js';
import { readWorktreeGitDir } from '../git/worktree-git-dir.js';
import { parseWorktreeList } from '../traffic/discover-worktrees.js';
import { claudeCodeMessages } from '../messages/setup.js';

/**
 * `install --claude-code`: the PreToolUse hook of examples/claude-code/ merged into the worktree's
 * `.claude/settings.json` (created when absent; every other key kept; a second run changes
 * nothing). What was there before is recorded in this worktree's git dir
 * (`airspace/claude-code-settings.json`): `uninstall` puts those exact bytes back (or removes the
 * file and the `.claude` folder we created) as long as the file is still what we wrote; when
 * someone edited it since, only our entry is taken out and their edits stay.
 *
 * Claude Code reads `.claude/settings.json` from the folder it runs in, and an agent's linked
 * worktree has its own: the other worktrees of the repository get the file too, created where
 * they have none (recorded in their own git dirs, undone by `uninstall` from any worktree); one
 * that has its own settings is left alone and named. A worktree made later has the file only if
 * it is committed — the command works in any worktree and clone, so committing it is the way
 * (docs/decisions/agent-harnesses.md, "Worktrees").
 */
export type ClaudeCodeAction =
  | { readonly kind: 'added'; readonly path: string; readonly created: boolean }
  | { readonly kind: 'already-installed'; readonly path: string }
  | { readonly kind: 'updated'; readonly path: string }
  | { readonly kind: 'left-alone'; readonly path: string }
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

interface Place {
  readonly toplevel: string;
  readonly gitDir: string;
}

const settingsPath = (place: Place) => join(place.toplevel, '.claude', 'settings.json');

/** One action per worktree: this one first, then the others in `git worktree list` order. */
export async function installClaudeCode(cwd: string): Promise<ClaudeCodeAction[]> {
  const here = await locate(cwd);
  const command = hookCommand(here.toplevel, dirname(here.commonDir));
  const actions = [await installIn(here, command, true)];
  for (const other of await otherWorktrees(cwd, here.toplevel)) actions.push(await installIn(other, command, false));
  return actions;
}

/** `merge`: this worktree, where the user asked; elsewhere a settings file of its own is not ours to edit. */
async function installIn(place: Place, command: string, merge: boolean): Promise<ClaudeCodeAction> {
  const path = settingsPath(place);
  const before = await readFile(path).catch(() => null);
  if (!merge && before !== null) {
    const settings = (() => {
      try {
        return parseSettings(before, path);
      } catch {
        return null;
      }
    })();
    return settings !== null && hasOurEntry(settings) ? { kind: 'already-installed', path } : { kind: 'left-alone', path };
  }
  const settings = before === null ? {} : parseSettings(before, path);
  const ours = ourCommands(settings);
  if (ours.length > 0 && ours.every((existing) => existing === command)) return { kind: 'already-installed', path };
  // An entry of an older release (its command crashed in a worktree without node_modules) is
  // replaced; what uninstall restores stays what was there before the first install.
  const recordPath = join(place.gitDir, 'airspace', RECORD);
  const earlier = ours.length > 0 ? await readRecord(recordPath, path) : null;
  const createdDir = before === null && !(await exists(dirname(path)));
  const after = Buffer.from(`${JSON.stringify(withOurEntry(ours.length > 0 ? withoutOurEntry(settings) : settings, command), null, 2)}\n`);
  const record: Record = earlier
    ? { ...earlier, written: sha256(after) }
    : { version: 1, path, original: before === null ? null : before.toString('base64'), createdDir, written: sha256(after) };
  await writeFileAtomic(recordPath, Buffer.from(JSON.stringify(record)));
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, after);
  return ours.length > 0 ? { kind: 'updated', path } : { kind: 'added', path, created: before === null };
}

/** What was undone, per worktree (empty when there is nothing of ours: nothing recorded, no entry). */
export async function uninstallClaudeCode(cwd: string): Promise<ClaudeCodeAction[]> {
  const here = await locate(cwd);
  const actions: ClaudeCodeAction[] = [];
  const mine = await uninstallIn(here, true);
  if (mine !== null) actions.push(mine);
  for (const other of await otherWorktrees(cwd, here.toplevel)) {
    const action = await uninstallIn(other, false);
    if (action !== null) actions.push(action);
  }
  return actions;
}

/** `anyEntry`: this worktree, where our entry comes out even without a record; elsewhere only what install recorded is undone. */
async function uninstallIn(place: Place, anyEntry: boolean): Promise<ClaudeCodeAction | null> {
  const path = settingsPath(place);
  const recordPath = join(place.gitDir, 'airspace', RECORD);
  const record = await readRecord(recordPath, path);
  if (record === null && !anyEntry) return null;
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

/** The repository's other worktrees that are there to write to (not bare, not pruned away). */
async function otherWorktrees(cwd: string, toplevel: string): Promise<Place[]> {
  const entries = parseWorktreeList(await gitZ(['worktree', 'list', '--porcelain', '-z'], { cwd }));
  const places: Place[] = [];
  for (const entry of entries) {
    if (entry.bare || entry.prunable || entry.path === toplevel) continue;
    const gitDir = await readWorktreeGitDir(entry.path);
    if (gitDir !== null) places.push({ toplevel: entry.path, gitDir });
  }
  return places;
}

/**
 * The hook command, for `sh` (Claude Code runs it through a shell in the project folder). Inside
 * the project (node_modules) the script is spelled from `$CLAUDE_PROJECT_DIR`, so a committed
 * settings file works in every clone; a linked worktree has no node_modules of its own, so the
 * main worktree's (next to the common git dir) is the fallback, as in the git shims (hooks/). With
 * neither, one line and exit 1: Claude Code's non-blocking error, the edit goes ahead unchecked.
 * Outside the project (a global install, a checkout) the absolute path is the only one that works.
 */
function hookCommand(toplevel: string, mainWorktree: string): string {
  const script = join(PACKAGE_ROOT, ...SCRIPT_TAIL.split('/'));
  const within = (root: string) => {
    const inside = relative(root, script);
    return inside.startsWith('..') || inside === script ? null : inside.split(sep).join('/');
  };
  const inside = within(toplevel) ?? within(mainWorktree);
  const missing = `echo '${claudeCodeMessages.hookNotInstalled}' >&2; exit 1`;
  if (inside === null) return `f="${script}"; [ -f "$f" ] && exec node "$f"; ${missing}`;
  const fromMain = `$(git -C "$CLAUDE_PROJECT_DIR" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)/../${inside}`;
  return `f="$CLAUDE_PROJECT_DIR/${inside}"; [ -f "$f" ] || f="${fromMain}"; [ -f "$f" ] && exec node "$f"; ${missing}`;
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
  return ourCommands(settings).length > 0;
}

/** The commands of our entries (normally one). */
function ourCommands(settings: Settings): string[] {
  const groups = settings.hooks?.PreToolUse;
  if (!Array.isArray(groups)) return [];
  return groups.flatMap((group: Group) => (Array.isArray(group?.hooks) ? group.hooks.filter(isOurs).map((hook) => (hook as { command: string }).command) : []));
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

async function locate(cwd: string): Promise<Place & { commonDir: string }> {
  const out = await git(['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-dir', '--git-common-dir'], { cwd });
  const [toplevel = '', gitDir = '', commonDir = ''] = out.split('\n');
  if (!toplevel || !gitDir || !commonDir) throw new AirspaceError('usage', 'claude-needs-worktree', claudeCodeMessages.needsWorktree);
  return { toplevel, gitDir, commonDir };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
