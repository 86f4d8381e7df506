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
import { build } from 'esbuild';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * yargs/lib/platform-shims/esm.mjs derives its locale directory (and the package root it reports
 * as `mainFilename`) from its own import.meta.url; bundled, that would be this bundle. Read both
 * from the installed yargs instead (`import.meta.resolve('yargs')` is node_modules/yargs/index.mjs,
 * one level above the shim's lib/platform-shims/).
 */
const yargsShim = {
  name: 'yargs-shim-location',
  setup(build) {
    build.onLoad({ filter: /[\\/]yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/ }, ({ path }) => {
      const source = readFileSync(path, 'utf8');
      const dirname = 'const __dirname = fileURLToPath(import.meta.url);';
      const locales = "resolve(__dirname, '../../../locales')";
      if (!source.includes(dirname) || !source.includes(locales)) throw new Error(`${path}: yargs changed; revisit scripts/bundle-cli.mjs`);
      return {
        contents: source
          .replace(dirname, "const __dirname = fileURLToPath(import.meta.resolve('yargs'));")
          .replace(locales, "resolve(__dirname, '../locales')"),
        loader: 'js',
      };
    });
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
