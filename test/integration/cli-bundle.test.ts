import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { recordLoadsInThisFile } from '../helpers/module-load-log.js';
import { BIN, PROJECT_ROOT, runCli, testEnv } from '../helpers/temp-repo.js';

/**
 * bin/airspace-hooks.js runs the full CLI from its bundle (scripts/bundle-cli.mjs): one file for
 * the parser and yargs, one per command, loaded only by that command. Measured, not assumed: a
 * module-resolution hook records every URL the real CLI resolves. Bundled code whose paths came
 * from import.meta.url (yargs' locales, the package version) must still find them.
 */
const recording = recordLoadsInThisFile();

/**
 * Runs the CLI with a probe that logs every `new Intl.Segmenter()`: string-width builds one at its
 * top level, and yargs reaches string-width only to format help text. So the count shows whether a
 * run paid for help formatting it never prints (scripts/bundle-cli.mjs defers string-width and
 * cliui to first use; src/cli/skip-help-text-cache.ts stops yargs caching the help on every command).
 */
function segmentersBuiltBy(args: readonly string[], env: Record<string, string> = {}) {
  const log = join(tmpdir(), `airspace-segmenters-${process.pid}-${args.join('_').replace(/\W/g, '')}.log`);
  writeFileSync(log, '');
  const probe = [
    "import { appendFileSync } from 'node:fs';",
    'const Base = Intl.Segmenter;',
    "Intl.Segmenter = class extends Base { constructor(...a) { super(...a); appendFileSync(process.env.AIRSPACE_SEGMENTER_LOG, 'built\\n'); } };",
  ].join('\n');
  const result = runCli(recording.repo, args, {
    ...env,
    AIRSPACE_SEGMENTER_LOG: log,
    NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(probe)}`,
  });
  const built = readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
  rmSync(log, { force: true });
  return { result, built };
}

function loadedBy(args: readonly string[]): string[] {
  const { result, urls } = recording.loads(args);
  expect(result.status, result.stderr).toBe(0);
  return urls;
}

const inProject = (urls: readonly string[]) =>
  urls.filter((url) => url.startsWith('file://') && !url.includes('/node_modules/')).map((url) => url.slice(url.indexOf('/dist/') + 1));

describe('the bundled CLI', () => {
  it('loads the bundle, the one command it runs and shared chunks; no unbundled module, no yargs from node_modules', () => {
    const urls = loadedBy(['intent', 'list']);
    const ours = inProject(urls).filter((path) => path.startsWith('dist/'));
    expect(ours).toContain('dist/bundle/cli.js');
    expect(ours).toContain('dist/bundle/intent-command.js');
    for (const path of ours) expect(path, path).toMatch(/^dist\/bundle\/(cli|intent-command|chunk-[A-Z0-9]+)\.js$/);
    // yargs' own modules come from the bundle (the shim resolves node_modules/yargs/index.mjs
    // only to locate its locale files; nothing under it is loaded).
    expect(urls.filter((url) => /\/node_modules\/(yargs\/(build|lib)|yargs-parser|cliui|y18n|string-width)\//.test(url))).toEqual([]);
  });

  it('finds yargs’ locale files: help text in the user’s language', () => {
    const german = runCli(recording.repo, ['--help'], { LC_ALL: '', LC_MESSAGES: '', LANG: 'de_DE.UTF-8' });
    expect(german.status).toBe(0);
    expect(german.stdout).toContain('Optionen:');
    // The probe's control: formatting help does build a Segmenter (string-width, loaded on first use).
    const english = segmentersBuiltBy(['--help'], { LC_ALL: '', LC_MESSAGES: '', LANG: 'en_US.UTF-8' });
    expect(english.result.stdout).toContain('Options:');
    expect(english.built).toBeGreaterThan(0);
  });

  it('formats no help text when none is printed: neither at start-up nor on every command', () => {
    const command = segmentersBuiltBy(['intent', 'list']);
    expect(command.result.status, command.result.stderr).toBe(0);
    expect(command.result.stdout).toContain('no declared intent');
    expect(command.built).toBe(0);
  });

  it('reports the package version, in --version and as the MCP server version', async () => {
    const { version } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
    const versionRun = segmentersBuiltBy(['--version']);
    expect(versionRun.result.stdout.trim()).toBe(version);
    expect(versionRun.built).toBe(0);
    const env = Object.fromEntries(Object.entries(testEnv()).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const client = new Client({ name: 'airspace-test', version: '0.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], cwd: recording.repo, env, stderr: 'pipe' }));
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'airspace-hooks', version });
    } finally {
      await client.close();
    }
  });
});
