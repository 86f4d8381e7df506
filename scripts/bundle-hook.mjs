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
