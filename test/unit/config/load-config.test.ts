import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../../src/config/defaults.js';
import { loadConfig, resolveConfig, validateUserConfig } from '../../../src/config/load-config.js';
import { DEFAULTS } from '../../../src/engine/defaults.js';
import { AirspaceError } from '../../../src/errors.js';
import { PROJECT_ROOT, removeDir, tempDir } from '../../helpers/temp-repo.js';

/** The configuration a user writes: what is refused, with which line, and what takes effect. */
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function repoWith(files: Record<string, string>): string {
  const dir = tempDir('airspace-config-');
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

async function configError(files: Record<string, string>): Promise<AirspaceError> {
  const error = await loadConfig(repoWith(files)).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AirspaceError);
  expect((error as AirspaceError).kind).toBe('config');
  expect((error as AirspaceError).message).not.toContain('\n');
  return error as AirspaceError;
}

const rc = (value: unknown) => ({ '.airspacerc.json': JSON.stringify(value) });

describe('thresholds are checked on the values in effect', () => {
  it('tauTA alone above the default tauRA is refused, naming the default', async () => {
    const error = await configError(rc({ model: { tauTA: 0.9 } }));
    expect(error.message).toContain(`model.tauTA (0.9) must be below model.tauRA (${DEFAULTS.tauRA})`);
    expect(error.message).toContain('the default tauRA');
  });

  it('tauRA alone below the default tauTA is refused', async () => {
    const error = await configError(rc({ model: { tauRA: 0.5 } }));
    expect(error.message).toContain(`model.tauTA (${DEFAULTS.tauTA}) must be below model.tauRA (0.5)`);
  });

  it('both set, crossed or equal, is refused; a valid pair is taken', async () => {
    await configError(rc({ model: { tauTA: 0.8, tauRA: 0.7 } }));
    await configError(rc({ model: { tauTA: 0.7, tauRA: 0.7 } }));
    const config = await loadConfig(repoWith(rc({ model: { tauTA: 0.5, tauRA: 0.6, blockOn: 'risk', halfLifeHours: 2 } })));
    expect(config.model).toEqual({ tauTA: 0.5, tauRA: 0.6, blockOn: 'risk', halfLifeMs: 7_200_000 });
  });

  it('an unknown channel weight or blockOn value is refused', async () => {
    await configError(rc({ model: { weights: { overlapp: 0.5 } } }));
    await configError(rc({ model: { blockOn: 'always' } }));
  });
});

describe('what the config may not say', () => {
  it('peers.worktrees is refused with its reason, not accepted and ignored', async () => {
    const error = await configError(rc({ peers: { worktrees: false } }));
    expect(error.message).toContain('"peers.worktrees" is not supported');
  });

  it('two config files: refused, naming both', async () => {
    const error = await configError({ ...rc({ remote: 'a' }), 'airspace.config.json': JSON.stringify({ remote: 'b' }) });
    expect(error.message).toMatch(/both .*\.airspacerc\.json and .*airspace\.config\.json exist/);
    const withPackage = await configError({ ...rc({}), 'package.json': JSON.stringify({ name: 'x', airspace: { remote: 'b' } }) });
    expect(withPackage.message).toContain('package.json#airspace');
  });

  it('resident.beaconRefreshMinutes: 0 turns the refresh off, a negative interval is refused', async () => {
    expect((await loadConfig(repoWith(rc({ resident: { beaconRefreshMinutes: 0 } })))).resident.beaconRefreshMinutes).toBe(0);
    expect((await loadConfig(repoWith(rc({})))).resident.beaconRefreshMinutes).toBe(DEFAULT_CONFIG.resident.beaconRefreshMinutes);
    const error = await configError(rc({ resident: { beaconRefreshMinutes: -1 } }));
    expect(error.message).toContain('resident.beaconRefreshMinutes');
  });

  it('a huge glob list is refused before it is compiled', async () => {
    const globs = Array.from({ length: 200_000 }, (_, i) => `dir${i}/**`);
    const error = await configError(rc({ ignore: globs }));
    expect(error.message).toMatch(/bytes; the limit is 262144 bytes/);
    const many = await configError(rc({ ignore: globs.slice(0, 1_001) }));
    expect(many.message).toContain('"ignore"');
    const long = await configError(rc({ remote: 'x'.repeat(1_001) }));
    expect(long.message).toContain('"remote"');
  });
});

describe('the README example', () => {
  it('is valid and changes nothing: every value it shows is the default in effect', () => {
    const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Configuration'));
    const block = /```json\n([\s\S]*?)\n```/.exec(section);
    expect(block).not.toBeNull();
    const example = resolveConfig(validateUserConfig(JSON.parse(block![1]!), 'README.md'), 'README.md');
    const defaults = resolveConfig({}, null);
    const { model, source: _a, ...rest } = example;
    const { model: defaultModel, source: _b, ...defaultRest } = defaults;
    expect(rest).toEqual(defaultRest);
    expect(defaultModel).toEqual({});
    expect({ ...DEFAULTS, ...model }).toEqual(DEFAULTS);
    expect(example.trunk).toBe(DEFAULT_CONFIG.trunk);
  });
});
