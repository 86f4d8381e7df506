import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';
import * as v from 'valibot';
import { AirspaceError } from '../errors.js';
import { configMessages } from '../messages/setup.js';
import { DEFAULTS } from '../engine/defaults.js';
import { DEFAULT_CONFIG, type AirspaceConfig, type HookName, type ModelOverrides } from './defaults.js';
import { CONFIG_LIMITS, UserConfigSchema, type UserConfig } from './schema.js';

/**
 * Where a configuration may live, at the repository root. At most one may exist: with two, one
 * would win silently and the other would look in effect, so loadConfig refuses and names both.
 */
const CONFIG_FILES = ['.airspacerc.json', 'airspace.config.json'] as const;

/** The file's text, or null when it does not exist; over the size limit it is refused unread. */
async function readIfExists(path: string, maxBytes: number | null): Promise<string | null> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new AirspaceError('config', 'config-unreadable', configMessages.unreadable(path, (error as Error).message));
  }
  try {
    const { size } = await handle.stat();
    if (maxBytes !== null && size > maxBytes) throw new AirspaceError('config', 'config-too-large', configMessages.tooLarge(path, size, maxBytes));
    return await handle.readFile('utf8');
  } catch (error) {
    if (error instanceof AirspaceError) throw error;
    throw new AirspaceError('config', 'config-unreadable', configMessages.unreadable(path, (error as Error).message));
  } finally {
    await handle.close();
  }
}

function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AirspaceError('config', 'config-json', configMessages.invalidJson(source, (error as Error).message));
  }
}

/** Finds and parses the user's configuration; `{}` when there is none, an error when there are two. */
async function findUserConfig(toplevel: string): Promise<{ raw: unknown; source: string | null }> {
  const found: { raw: unknown; source: string }[] = [];
  for (const name of CONFIG_FILES) {
    const path = join(toplevel, name);
    const text = await readIfExists(path, CONFIG_LIMITS.fileBytes);
    if (text !== null) found.push({ raw: parseJson(text, path), source: path });
  }
  const pkgPath = join(toplevel, 'package.json');
  // package.json belongs to the project and may be large; only its `airspace` key is ours.
  const pkg = await readIfExists(pkgPath, null);
  if (pkg !== null) {
    // A broken package.json is someone else's problem unless it is where our config lives.
    let parsed: unknown;
    try {
      parsed = JSON.parse(pkg);
    } catch {
      parsed = null;
    }
    if (parsed && typeof parsed === 'object' && 'airspace' in parsed) {
      const raw = (parsed as Record<string, unknown>).airspace;
      const source = `${pkgPath}#airspace`;
      // JSON.parse takes any depth; JSON.stringify below recurses and overflowed the stack at 100,000 levels.
      if (nestedDeeperThan(raw, CONFIG_LIMITS.depth)) throw new AirspaceError('config', 'config-too-deep', configMessages.tooDeep(source, CONFIG_LIMITS.depth));
      const size = JSON.stringify(raw ?? null).length;
      if (size > CONFIG_LIMITS.fileBytes) throw new AirspaceError('config', 'config-too-large', configMessages.tooLarge(source, size, CONFIG_LIMITS.fileBytes));
      found.push({ raw, source });
    }
  }
  if (found.length > 1) throw new AirspaceError('config', 'config-ambiguous', configMessages.twoConfigs(found[0]!.source, found[1]!.source));
  return found[0] ?? { raw: {}, source: null };
}

/** Whether a parsed JSON value has arrays or objects nested more than `max` levels (iterative: no stack to overflow). */
function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next.value === null || typeof next.value !== 'object') continue;
    if (next.depth >= max) return true;
    for (const child of Object.values(next.value)) stack.push({ value: child, depth: next.depth + 1 });
  }
  return false;
}

export function validateUserConfig(raw: unknown, source: string): UserConfig {
  const result = v.safeParse(UserConfigSchema, raw);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const key = v.getDotPath(issue) ?? '(top level)';
  throw new AirspaceError('config', 'config-invalid', configMessages.invalidValue(source, key, issue.expected ?? 'a valid value', issue.received), {
    key,
  });
}

export function resolveConfig(user: UserConfig, source: string | null): AirspaceConfig {
  const where = source ?? 'config';
  if (user.peers?.worktrees !== undefined)
    throw new AirspaceError('config', 'config-invalid', configMessages.worktreesUnsupported(where), { key: 'peers.worktrees' });
  const hook = (name: HookName) => ({ ...DEFAULT_CONFIG.hooks[name], ...stripUndefined(user.hooks?.[name] ?? {}) });
  const { worktrees: _refused, ...peers } = user.peers ?? {};
  const config: AirspaceConfig = {
    remote: user.remote ?? DEFAULT_CONFIG.remote,
    trunk: user.trunk ?? DEFAULT_CONFIG.trunk,
    peers: { ...DEFAULT_CONFIG.peers, ...stripUndefined(peers) },
    ignore: user.ignore ?? DEFAULT_CONFIG.ignore,
    channels: user.channels ?? DEFAULT_CONFIG.channels,
    model: modelOverrides(user.model ?? {}),
    hooks: { 'pre-commit': hook('pre-commit'), 'pre-push': hook('pre-push') },
    beacons: {
      ttlMs: (user.beacons?.ttlHours ?? DEFAULT_CONFIG.beacons.ttlMs / 3_600_000) * 3_600_000,
      refreshMs: (user.beacons?.refreshHours ?? DEFAULT_CONFIG.beacons.refreshMs / 3_600_000) * 3_600_000,
      maxBytes: user.beacons?.maxBytes ?? DEFAULT_CONFIG.beacons.maxBytes,
      shareUntracked: user.beacons?.shareUntracked ?? DEFAULT_CONFIG.beacons.shareUntracked,
      legacyRefs: user.beacons?.legacyRefs ?? DEFAULT_CONFIG.beacons.legacyRefs,
    },
    graph: { budgetMs: user.graph?.budgetMs ?? DEFAULT_CONFIG.graph.budgetMs },
    symbols: { signatureChange: user.symbols?.signatureChange ?? DEFAULT_CONFIG.symbols.signatureChange },
    resident: {
      enabled: user.resident?.enabled ?? DEFAULT_CONFIG.resident.enabled,
      idleMinutes: user.resident?.idleMinutes ?? DEFAULT_CONFIG.resident.idleMinutes,
      fetchIntervalMinutes: user.resident?.fetchIntervalMinutes ?? DEFAULT_CONFIG.resident.fetchIntervalMinutes,
      watch: user.resident?.watch ?? DEFAULT_CONFIG.resident.watch,
      beaconRefreshMinutes: user.resident?.beaconRefreshMinutes ?? DEFAULT_CONFIG.resident.beaconRefreshMinutes,
    },
    source,
  };
  checkThresholds(config.model, where);
  return config;
}

/** The file's `model` in the engine's units: hours become ms, unset keys stay unset. */
function modelOverrides(model: NonNullable<UserConfig['model']>): ModelOverrides {
  const { halfLifeHours, ...rest } = model;
  return { ...stripUndefined(rest), ...(halfLifeHours !== undefined ? { halfLifeMs: halfLifeHours * 3_600_000 } : {}) };
}

/**
 * τ_TA < τ_RA on the values the engine will USE: a file setting only one of them is checked
 * against the engine's default for the other (tauTA 0.9 alone sits above the default τ_RA 0.77,
 * and every Traffic Advisory would vanish).
 */
function checkThresholds(model: ModelOverrides, where: string): void {
  const tauTA = model.tauTA ?? DEFAULTS.tauTA;
  const tauRA = model.tauRA ?? DEFAULTS.tauRA;
  if (tauTA < tauRA) return;
  const which =
    model.tauTA === undefined
      ? `the default tauTA is ${DEFAULTS.tauTA}`
      : model.tauRA === undefined
        ? `the default tauRA is ${DEFAULTS.tauRA}`
        : 'both are set here';
  throw new AirspaceError('config', 'config-invalid', configMessages.thresholdsCrossed(where, tauTA, tauRA, which), { key: 'model.tauTA' });
}

/** The files loadConfig reads in `toplevel` (present or not). */
export function userConfigFiles(toplevel: string): string[] {
  return [...CONFIG_FILES.map((name) => join(toplevel, name)), join(toplevel, 'package.json')];
}

export async function loadConfig(toplevel: string): Promise<AirspaceConfig> {
  const { raw, source } = await findUserConfig(toplevel);
  const user = validateUserConfig(raw, source ?? 'config');
  return resolveConfig(user, source);
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
