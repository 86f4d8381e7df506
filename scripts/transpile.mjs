// Writes dist/**/*.js from src/**/*.ts, one file per module as tsc would, without type-checking:
// `npm test` needs the JavaScript before any test can run, and tsc's type check and declaration
// emit took ~10 s of that wait (docs/decisions/test-suite.md). The types are checked by
// `npm run build:types`, which also writes the declarations; tsconfig.json sets isolatedModules,
// so every file compiles on its own exactly as it does here.
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isPackageModule } from './package-modules.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const modules = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts') && isPackageModule(path))
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
