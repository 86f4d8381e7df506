// Bundles the hook fast path (dist/cli/hook-entry.js and everything it imports) into one file.
// Hook start-up is a budget: resolving and loading ~90 ES modules costs ~200 ms on a small
// machine, one bundled file ~50 ms (docs/decisions/hook-performance.md). dependency-cruiser and
// TypeScript stay external: they load lazily, only when the import graph must be refreshed; so does
// oxc-parser (a native binding), loaded only when a pair has changed source files to compare.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
await build({
  entryPoints: [join(root, 'dist', 'cli', 'hook-entry.js')],
  outfile: join(root, 'dist', 'hook.bundle.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // get-tsconfig, json5, picomatch, resolve.exports: the one import resolver's libraries, imported on
  // first use (src/source/resolver-libraries.ts); outside the bundle, so a hook that follows no
  // package import neither parses nor loads them.
  external: ['dependency-cruiser', 'typescript', 'oxc-parser', 'get-tsconfig', 'json5', 'picomatch', 'resolve.exports'],
  // CommonJS dependencies (picomatch, picocolors) call require() for node built-ins.
  banner: { js: "import { createRequire as __airspaceRequire } from 'node:module'; const require = __airspaceRequire(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
});

// The askers of the resident process (docs/decisions/resident.md), one file each: the hooks' fast
// path (bin/airspace-hooks.js) and the client the harnesses' edit check loads
// (examples/agent-hooks/edit-check.cjs). Node built-ins only; nine ES modules loaded one by one cost
// about twice what one file costs (measured in docs/decisions/resident.md, "What the asker costs").
// The client is also bundled as CommonJS, for the Claude Code edit check's entry
// (examples/claude-code/pre-edit.cjs): Node starts a CommonJS script sooner than an ES module
// (docs/decisions/resident.md, "The CommonJS hot path"). esbuild leaves `import.meta` empty in that
// format; src/resident/resident-identity.ts finds the package from import.meta.url, so it is that
// file's own URL there too, and the resident is found and asked as the ESM client finds it.
/** @type {import('esbuild').BuildOptions} */
const asModule = { format: 'esm' };
/** @type {import('esbuild').BuildOptions} */
const asCommonJs = {
  format: 'cjs',
  define: { 'import.meta.url': '__airspaceModuleUrl' },
  banner: { js: "'use strict'; const __airspaceModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
};
for (const { entry, outfile, as } of [
  { entry: join(root, 'dist', 'cli', 'hook-fast-path.js'), outfile: join(root, 'dist', 'hook-fast-path.bundle.js'), as: asModule },
  { entry: join(root, 'dist', 'app', 'ask-resident.js'), outfile: join(root, 'dist', 'ask-resident.bundle.js'), as: asModule },
  { entry: join(root, 'dist', 'app', 'ask-resident.js'), outfile: join(root, 'dist', 'ask-resident.bundle.cjs'), as: asCommonJs },
]) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    legalComments: 'none',
    logLevel: 'warning',
    ...as,
  });
}
