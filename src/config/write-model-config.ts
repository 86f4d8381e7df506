import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { validateUserConfig } from './load-config.js';

/**
 * Writes engine values into the `model` section of the repository's configuration and nothing
 * else: the other keys, and the file the user chose (.airspacerc.json, airspace.config.json or
 * package.json#airspace), stay as they are. No configuration yet → `.airspacerc.json`. The result
 * is validated with the loader's own schema before anything is written. Returns the path written.
 */
export async function writeModelConfig(toplevel: string, source: string | null, values: Readonly<Record<string, unknown>>): Promise<string> {
  const inPackage = source?.endsWith('#airspace') === true;
  const path = source === null ? join(toplevel, '.airspacerc.json') : inPackage ? source.slice(0, -'#airspace'.length) : source;
  const document = source === null ? {} : (JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>);
  const config = (inPackage ? (document.airspace ?? {}) : document) as Record<string, unknown>;
  const model = (config.model ?? {}) as Record<string, unknown>;
  const weights = { ...((model.weights ?? {}) as Record<string, number>), ...((values.weights ?? {}) as Record<string, number>) };
  const next = { ...config, model: { ...model, ...values, weights } };
  validateUserConfig(next, path);
  const written = inPackage ? { ...document, airspace: next } : next;
  await writeFile(path, `${JSON.stringify(written, null, 2)}\n`);
  return path;
}
