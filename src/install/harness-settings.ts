import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AirspaceError } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { git, gitZ } from '../git/exec-git.js';
import { readWorktreeGitDir } from '../git/worktree-git-dir.js';
import { parseWorktreeList } from '../traffic/discover-worktrees.js';
import { harnessMessages } from '../messages/setup.js';
import type { HarnessSpec } from './harness-specs.js';

/**
 * `install --<harness>`: the edit-time hook of examples/<harness>/ merged into the worktree's
 * settings file of that harness (created when absent; every other key and hook kept; a second run
 * changes nothing). What was there before is recorded in this worktree's git dir
 * (`airspace/<record>`): `uninstall` puts those exact bytes back (or removes the file and the folder
 * we created) as long as the file is still what we wrote; when someone edited it since, only our
 * entry is taken out and their edits stay. One engine for every harness; what differs between
 * them is a HarnessSpec (src/install/harness-specs.ts).
 *
 * Each harness reads its settings from the folder it runs in, and an agent's linked worktree has
 * its own: the other worktrees of the repository get the file too, created where they have none
 * (recorded in their own git dirs, undone by `uninstall` from any worktree); one that has its own
 * settings is left alone and named. A worktree made later has the file only if it is committed —
 * the command works in any worktree and clone, so committing it is the way
 * (docs/decisions/agent-harnesses.md, "Worktrees").
 */
export type HarnessAction =
  | { readonly kind: 'added'; readonly path: string; readonly created: boolean }
  | { readonly kind: 'already-installed'; readonly path: string }
  | { readonly kind: 'updated'; readonly path: string }
  | { readonly kind: 'left-alone'; readonly path: string }
  | { readonly kind: 'restored'; readonly path: string; readonly removed: boolean }
  | { readonly kind: 'entry-removed'; readonly path: string };

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

interface Place {
  readonly toplevel: string;
  readonly gitDir: string;
}

const settingsPath = (spec: HarnessSpec, place: Place) => join(place.toplevel, ...spec.settingsFile);
const recordPath = (spec: HarnessSpec, place: Place) => join(place.gitDir, 'airspace', spec.record);

/** One action per worktree: this one first, then the others in `git worktree list` order. */
export async function installHarness(spec: HarnessSpec, cwd: string): Promise<HarnessAction[]> {
  const here = await locate(spec, cwd);
  const command = hookCommand(spec, here.toplevel, dirname(here.commonDir));
  const actions = [await installIn(spec, here, command, true)];
  for (const other of await otherWorktrees(cwd, here.toplevel)) actions.push(await installIn(spec, other, command, false));
  return actions;
}

/** `merge`: this worktree, where the user asked; elsewhere a settings file of its own is not ours to edit. */
async function installIn(spec: HarnessSpec, place: Place, command: string, merge: boolean): Promise<HarnessAction> {
  const path = settingsPath(spec, place);
  const before = await readFile(path).catch(() => null);
  if (!merge && before !== null) {
    const settings = (() => {
      try {
        return parseSettings(spec, before, path);
      } catch {
        return null;
      }
    })();
    return settings !== null && ourCommands(spec, settings).length > 0 ? { kind: 'already-installed', path } : { kind: 'left-alone', path };
  }
  const settings = before === null ? { ...spec.created } : parseSettings(spec, before, path);
  const ours = ourCommands(spec, settings);
  if (ours.length > 0 && ours.every((existing) => existing === command)) return { kind: 'already-installed', path };
  // An entry of an older release (its command crashed in a worktree without node_modules) is
  // replaced; what uninstall restores stays what was there before the first install.
  const record = recordPath(spec, place);
  const earlier = ours.length > 0 ? await readRecord(record, path) : null;
  const createdDir = before === null && !(await exists(dirname(path)));
  const after = serialize(withOurEntry(spec, ours.length > 0 ? withoutOurEntry(spec, settings) : settings, command));
  const entry: Record = earlier
    ? { ...earlier, written: sha256(after) }
    : { version: 1, path, original: before === null ? null : before.toString('base64'), createdDir, written: sha256(after) };
  await writeFileAtomic(record, Buffer.from(JSON.stringify(entry)));
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, after);
  return ours.length > 0 ? { kind: 'updated', path } : { kind: 'added', path, created: before === null };
}

/** What was undone, per worktree (empty when there is nothing of ours: nothing recorded, no entry). */
export async function uninstallHarness(spec: HarnessSpec, cwd: string): Promise<HarnessAction[]> {
  const here = await locate(spec, cwd);
  const actions: HarnessAction[] = [];
  const mine = await uninstallIn(spec, here, true);
  if (mine !== null) actions.push(mine);
  for (const other of await otherWorktrees(cwd, here.toplevel)) {
    const action = await uninstallIn(spec, other, false);
    if (action !== null) actions.push(action);
  }
  return actions;
}

/** `anyEntry`: this worktree, where our entry comes out even without a record; elsewhere only what install recorded is undone. */
async function uninstallIn(spec: HarnessSpec, place: Place, anyEntry: boolean): Promise<HarnessAction | null> {
  const path = settingsPath(spec, place);
  const recorded = recordPath(spec, place);
  const record = await readRecord(recorded, path);
  if (record === null && !anyEntry) return null;
  const current = await readFile(path).catch(() => null);
  let action: HarnessAction | null = null;
  if (record !== null && current !== null && sha256(current) === record.written) {
    if (record.original === null) {
      await rm(path);
      if (record.createdDir) await rmdir(dirname(path)).catch(() => undefined); // not empty: someone added files
    } else await writeFileAtomic(path, Buffer.from(record.original, 'base64'));
    action = { kind: 'restored', path, removed: record.original === null };
  } else if (current !== null) {
    const settings = parseSettings(spec, current, path);
    if (ourCommands(spec, settings).length > 0) {
      await writeFileAtomic(path, serialize(withoutOurEntry(spec, settings)));
      action = { kind: 'entry-removed', path };
    }
  }
  await rm(recorded, { force: true });
  return action;
}

/**
 * What `doctor` reports for one harness in this worktree: our entry in its settings file (put there
 * by install, or committed), or install's record without the entry any more (someone took it out,
 * or the file is gone or no longer JSON), or nothing of ours. Reads only.
 */
export type HarnessState =
  | { readonly kind: 'installed'; readonly path: string }
  | { readonly kind: 'entry-missing'; readonly path: string; readonly fileMissing: boolean }
  | { readonly kind: 'unreadable'; readonly path: string; readonly reason: string }
  | { readonly kind: 'absent'; readonly path: string };

export async function inspectHarness(spec: HarnessSpec, cwd: string): Promise<HarnessState> {
  const here = await locate(spec, cwd);
  const path = settingsPath(spec, here);
  const recorded = (await readRecord(recordPath(spec, here), path)) !== null;
  const current = await readFile(path).catch(() => null);
  if (current === null) return recorded ? { kind: 'entry-missing', path, fileMissing: true } : { kind: 'absent', path };
  let settings: Settings;
  try {
    settings = parseSettings(spec, current, path);
  } catch (error) {
    // A file of the user's own that the harness cannot read either is not ours to report.
    return recorded ? { kind: 'unreadable', path, reason: error instanceof Error ? error.message : String(error) } : { kind: 'absent', path };
  }
  if (ourCommands(spec, settings).length > 0) return { kind: 'installed', path };
  return recorded ? { kind: 'entry-missing', path, fileMissing: false } : { kind: 'absent', path };
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
 * The hook command, for `sh` (every one of these harnesses runs it through a shell). Inside the
 * project (node_modules) the script is spelled from the harness's project folder, so a committed
 * settings file works in every clone; a linked worktree has no node_modules of its own, so the main
 * worktree's (next to the common git dir) is the fallback, as in the git shims (hooks/). With
 * neither, one line and exit 1: each harness's non-blocking error, the edit goes ahead unchecked.
 * Outside the project (a global install, a checkout) the absolute path is the only one that works.
 */
function hookCommand(spec: HarnessSpec, toplevel: string, mainWorktree: string): string {
  const script = join(PACKAGE_ROOT, ...spec.script.split('/'));
  const within = (root: string) => {
    const inside = relative(root, script);
    return inside.startsWith('..') || inside === script ? null : inside.split(sep).join('/');
  };
  const inside = within(toplevel) ?? within(mainWorktree);
  const missing = `echo '${harnessMessages.hookNotInstalled}' >&2; exit 1`;
  if (inside === null) return `f="${script}"; [ -f "$f" ] && exec node "$f"; ${missing}`;
  const project = spec.projectDir;
  const fromMain = `$(git -C "${project}" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)/../${inside}`;
  return `f="${project}/${inside}"; [ -f "$f" ] || f="${fromMain}"; [ -f "$f" ] && exec node "$f"; ${missing}`;
}

const serialize = (settings: Settings) => Buffer.from(`${JSON.stringify(settings, null, 2)}\n`);

function withOurEntry(spec: HarnessSpec, settings: Settings, command: string): Settings {
  const hooks = { ...(settings.hooks ?? {}) };
  const entries = Array.isArray(hooks[spec.event]) ? [...(hooks[spec.event] as unknown[])] : [];
  entries.push(spec.entry(command));
  return { ...settings, hooks: { ...hooks, [spec.event]: entries } };
}

function withoutOurEntry(spec: HarnessSpec, settings: Settings): Settings {
  const hooks = { ...(settings.hooks ?? {}) };
  const entries = (hooks[spec.event] as unknown[]).flatMap((entry) => {
    if (spec.layout === 'flat') return isOurs(spec, entry) ? [] : [entry];
    const group = entry as { hooks?: unknown } | null;
    if (!Array.isArray(group?.hooks)) return [entry];
    const kept = (group.hooks as unknown[]).filter((hook) => !isOurs(spec, hook));
    if (kept.length === group.hooks.length) return [entry];
    return kept.length === 0 ? [] : [{ ...group, hooks: kept }];
  });
  if (entries.length > 0) hooks[spec.event] = entries;
  else delete hooks[spec.event];
  const rest: Settings = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete rest.hooks;
  return rest;
}

/** The commands of our entries (normally one). */
function ourCommands(spec: HarnessSpec, settings: Settings): string[] {
  const entries = settings.hooks?.[spec.event];
  if (!Array.isArray(entries)) return [];
  const handlers =
    spec.layout === 'flat' ? entries : entries.flatMap((group: { hooks?: unknown } | null) => (Array.isArray(group?.hooks) ? (group.hooks as unknown[]) : []));
  return handlers.filter((hook) => isOurs(spec, hook)).map((hook) => (hook as { command: string }).command);
}

function isOurs(spec: HarnessSpec, hook: unknown): boolean {
  const command = (hook as { command?: unknown } | null)?.command;
  return typeof command === 'string' && [spec.script, ...spec.earlierScripts].some((script) => command.includes(script));
}

function parseSettings(spec: HarnessSpec, bytes: Buffer, path: string): Settings {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new AirspaceError('config', 'harness-settings-invalid', harnessMessages.notJson(spec.label, spec.id, path));
  }
  const hooks = (parsed as Settings | null)?.hooks;
  const shapeOk =
    typeof parsed === 'object' &&
    parsed !== null &&
    !Array.isArray(parsed) &&
    (hooks === undefined || (typeof hooks === 'object' && hooks !== null && !Array.isArray(hooks)));
  const eventOk = hooks?.[spec.event] === undefined || Array.isArray(hooks[spec.event]);
  if (!shapeOk || !eventOk) throw new AirspaceError('config', 'harness-settings-invalid', harnessMessages.unexpectedShape(path, spec.event));
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

async function locate(spec: HarnessSpec, cwd: string): Promise<Place & { commonDir: string }> {
  const out = await git(['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-dir', '--git-common-dir'], { cwd });
  const [toplevel = '', gitDir = '', commonDir = ''] = out.split('\n');
  if (!toplevel || !gitDir || !commonDir)
    throw new AirspaceError('usage', 'harness-needs-worktree', harnessMessages.needsWorktree(spec.label, spec.id, spec.settingsFile.join('/')));
  return { toplevel, gitDir, commonDir };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
