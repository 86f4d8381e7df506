import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as v from 'valibot';
import { AirspaceError } from '../errors.js';
import { configMessages } from '../messages/config.js';
import { DEFAULT_CONFIG, type AirspaceConfig, type HookName } from './defaults.js';
import { UserConfigSchema, type UserConfig } from './schema.js';

/** Looked up in this order at the repository root; the first one found wins. */
const CONFIG_FILES = ['.airspacerc.json', 'airspace.config.json'] as const;

async function readIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new AirspaceError('config', 'config-unreadable', configMessages.unreadable(path, (error as Error).message));
  }
}

function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AirspaceError('config', 'config-json', configMessages.invalidJson(source, (error as Error).message));
  }
}

/** Finds and parses the user's configuration; `{}` when there is none. */
async function findUserConfig(toplevel: string): Promise<{ raw: unknown; source: string | null }> {
  for (const name of CONFIG_FILES) {
    const path = join(toplevel, name);
    const text = await readIfExists(path);
    if (text !== null) return { raw: parseJson(text, path), source: path };
  }
  const pkgPath = join(toplevel, 'package.json');
  const pkg = await readIfExists(pkgPath);
  if (pkg !== null) {
    // A broken package.json is someone else's problem unless it is where our config lives.
    let parsed: unknown;
    try {
      parsed = JSON.parse(pkg);
    } catch {
      return { raw: {}, source: null };
    }
    if (parsed && typeof parsed === 'object' && 'airspace' in parsed) {
      return { raw: (parsed as Record<string, unknown>).airspace, source: `${pkgPath}#airspace` };
    }
  }
  return { raw: {}, source: null };
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
  const hook = (name: HookName) => ({ ...DEFAULT_CONFIG.hooks[name], ...stripUndefined(user.hooks?.[name] ?? {}) });
  const { halfLifeHours, ...model } = user.model ?? {};
  const config: AirspaceConfig = {
    remote: user.remote ?? DEFAULT_CONFIG.remote,
    trunk: user.trunk ?? DEFAULT_CONFIG.trunk,
    peers: { ...DEFAULT_CONFIG.peers, ...stripUndefined(user.peers ?? {}) },
    ignore: user.ignore ?? DEFAULT_CONFIG.ignore,
    channels: user.channels ?? DEFAULT_CONFIG.channels,
    model: { ...stripUndefined(model), ...(halfLifeHours !== undefined ? { halfLifeMs: halfLifeHours * 3_600_000 } : {}) },
    hooks: { 'pre-commit': hook('pre-commit'), 'pre-push': hook('pre-push') },
    beacons: {
      ttlMs: (user.beacons?.ttlHours ?? DEFAULT_CONFIG.beacons.ttlMs / 3_600_000) * 3_600_000,
      maxBytes: user.beacons?.maxBytes ?? DEFAULT_CONFIG.beacons.maxBytes,
    },
    graph: { budgetMs: user.graph?.budgetMs ?? DEFAULT_CONFIG.graph.budgetMs },
    source,
  };
  const tauTA = (config.model.tauTA as number | undefined) ?? null;
  const tauRA = (config.model.tauRA as number | undefined) ?? null;
  if (tauTA !== null && tauRA !== null && tauTA > tauRA) {
    throw new AirspaceError('config', 'config-invalid', configMessages.invalidValue(source ?? 'config', 'model.tauTA', `a value <= model.tauRA (${tauRA})`, String(tauTA)));
  }
  return config;
}

export async function loadConfig(toplevel: string): Promise<AirspaceConfig> {
  const { raw, source } = await findUserConfig(toplevel);
  const user = validateUserConfig(raw, source ?? 'config');
  return resolveConfig(user, source);
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
