// Bundles the full CLI (dist/cli/main.js and everything it imports) for bin/airspace-hooks.js.
// Resolving and loading ~200 ES modules was a large share of a short command's CPU (measured in
// bench/perf.mjs, "cli start-up"); with `splitting` each command's lazy `import()` stays a chunk
// of its own, so `intent add` still loads none of the radar, the graph or the MCP server.
// The output sits two levels below the package root (dist/bundle/), like every dist/<area>/
// module, so paths built from import.meta.url ('../../package.json', '../../dist/report/...')
// stay right. dependency-cruiser, TypeScript and oxc-parser stay external as in the hook bundle;
// the MCP SDK and zod too (test mcp-lazy-load watches them load from node_modules, in `mcp` only).
// yargs is bundled (its ~40 modules were most of `--version`), but it finds its locale files
// relative to its own module: `yargsShim` points that one lookup back at the installed yargs.
// The shim also defers cliui and string-width to their first call: their top levels build
// Intl.Segmenters and Unicode property regexes (≈ 30 ms of CPU per run), and yargs calls them
// only to format help text (test/integration/cli-bundle.test.ts watches for the Segmenter).
import { build } from 'esbuild';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * yargs/lib/platform-shims/esm.mjs derives its locale directory (and the package root it reports
 * as `mainFilename`) from its own import.meta.url; bundled, that would be this bundle. Read both
 * from the installed yargs instead (`import.meta.resolve('yargs')` is node_modules/yargs/index.mjs,
 * one level above the shim's lib/platform-shims/).
 * The shim's static imports of cliui and string-width become require() calls made on first use:
 * esbuild then wraps those modules (and wrap-ansi, strip-ansi below them) in an init function
 * that runs on that first call instead of at start-up.
 */
const LAZY = 'airspace-lazy-yargs-deps';
const yargsShim = {
  name: 'yargs-shim-location',
  setup(build) {
    build.onLoad({ filter: /[\\/]yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/, namespace: 'file' }, ({ path }) => {
      const source = readFileSync(path, 'utf8');
      const replacements = [
        ['const __dirname = fileURLToPath(import.meta.url);', "const __dirname = fileURLToPath(import.meta.resolve('yargs'));"],
        ["resolve(__dirname, '../../../locales')", "resolve(__dirname, '../locales')"],
        ["import cliui from 'cliui'\n", `import { cliui } from '${LAZY}'\n`],
        ["import stringWidth from 'string-width';\n", `import { stringWidth } from '${LAZY}';\n`],
      ];
      let contents = source;
      for (const [from, to] of replacements) {
        if (!contents.includes(from)) throw new Error(`${path}: yargs changed (no ${JSON.stringify(from)}); revisit scripts/bundle-cli.mjs`);
        contents = contents.replace(from, to);
      }
      return { contents, loader: 'js' };
    });
    // A module of its own: the shim's top level declares a `require` of its own (createRequire),
    // and esbuild bundles only calls of the free `require`. Resolved from the shim's directory, so
    // the same cliui and string-width as yargs' own imports.
    build.onResolve({ filter: new RegExp(`^${LAZY}$`) }, ({ importer }) => ({ path: LAZY, namespace: LAZY, pluginData: dirname(importer) }));
    build.onLoad({ filter: /.*/, namespace: LAZY }, ({ pluginData }) => ({
      contents: [
        'let cliuiModule, stringWidthModule;',
        "export const cliui = (...args) => (cliuiModule ??= require('cliui')).default(...args);",
        "export const stringWidth = (...args) => (stringWidthModule ??= require('string-width')).default(...args);",
      ].join('\n'),
      resolveDir: pluginData,
      loader: 'js',
    }));
  },
};

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'bundle');
const commands = join(root, 'dist', 'cli', 'commands');
rmSync(outdir, { recursive: true, force: true });
await build({
  // Each command module is an entry of its own, so its lazy import loads `<command>.js` by name.
  entryPoints: {
    cli: join(root, 'dist', 'cli', 'main.js'),
    ...Object.fromEntries(
      readdirSync(commands)
        .filter((name) => name.endsWith('.js'))
        .map((name) => [name.replace(/\.js$/, ''), join(commands, name)]),
    ),
  },
  outdir,
  bundle: true,
  splitting: true,
  chunkNames: 'chunk-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: [
    'dependency-cruiser',
    'dependency-cruiser/*',
    'typescript',
    'oxc-parser',
    '@modelcontextprotocol/sdk',
    '@modelcontextprotocol/sdk/*',
    'zod',
    'chokidar',
  ],
  plugins: [yargsShim],
  // CommonJS dependencies (picomatch, picocolors) call require() for node built-ins.
  banner: { js: "import { createRequire as __airspaceRequire } from 'node:module'; const require = __airspaceRequire(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
});
