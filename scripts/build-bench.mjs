// Writes bench/build/*.js from bench/src/*.ts: the benchmark-only modules (the accuracy bench, its
// scenario loading and report), which the npm package does not ship (docs/decisions/replay.md).
// One file per module, as scripts/transpile.mjs does for src/; an import of the package's source
// (`../../src/x.js`) becomes an import of the built package (`../../dist/x.js`: bench/src/ and
// bench/build/ are at the same depth), so the bench scores exactly what users install, from one copy
// of each module. Run after scripts/transpile.mjs; type-checked with the rest by tsconfig.json.
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sources = join(root, 'bench', 'src');
const PACKAGE_SOURCE = '../../src/';

/** Every import stays an import (nothing is bundled); the package's source is read from dist/. */
const packageFromDist = {
  name: 'package-from-dist',
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const path = args.path.startsWith(PACKAGE_SOURCE) ? `../../dist/${args.path.slice(PACKAGE_SOURCE.length)}` : args.path;
      return { path, external: true };
    });
  },
};

await build({
  entryPoints: readdirSync(sources)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(sources, name)),
  outdir: join(root, 'bench', 'build'),
  bundle: true,
  plugins: [packageFromDist],
  tsconfig: join(root, 'tsconfig.build.json'),
  platform: 'node',
  format: 'esm',
  target: 'es2022',
  logLevel: 'warning',
});
