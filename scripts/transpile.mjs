// Writes dist/**/*.js from src/**/*.ts, one file per module as tsc would, without type-checking:
// `npm test` needs the JavaScript before any test can run, and tsc's type check and declaration
// emit took ~10 s of that wait (docs/decisions/test-suite.md). The types are checked by
// `npm run typecheck:src` and the declarations written by `npm run build:types`; tsconfig.json
// sets isolatedModules, so every file compiles on its own exactly as it does here.
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// The radar's browser client is bundled on its own (scripts/bundle-radar.mjs), as tsconfig.build.json excludes it.
const modules = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts') && !path.startsWith(join('report', 'radar-client')))
  .map((path) => join(root, 'src', path));
await build({
  entryPoints: modules,
  outbase: join(root, 'src'),
  outdir: join(root, 'dist'),
  tsconfig: join(root, 'tsconfig.build.json'),
  platform: 'node',
  format: 'esm',
  target: 'es2022',
  logLevel: 'warning',
});
