// Type-checks the whole project (src, test, bench, scripts: tsconfig.json) and writes the package's
// declarations (dist/**/*.d.ts) in the same tsc run. Checking and emitting in two programs parsed
// and checked src/ twice: 35 s of CPU against 17 s for one (docs/decisions/test-suite.md); the
// declarations are byte-identical to tsconfig.build.json's. `npm test` runs this beside the test
// suite, whose install tests `npm pack` dist/ (test/e2e/install-kit.ts): tsc writes into a scratch
// directory and each finished file is then renamed into dist/, so a pack never reads a
// half-written declaration. Only the package's own modules go to dist/ (test/, bench/ and the
// radar's browser client are checked, and their declarations dropped).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isPackageModule } from './package-modules.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = join(root, 'node_modules', '.cache', 'airspace-hooks', `declarations-${process.pid}`);
rmSync(scratch, { recursive: true, force: true });
try {
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      join(root, 'tsconfig.json'),
      '--noEmit',
      'false',
      '--declaration',
      '--emitDeclarationOnly',
      '--outDir',
      scratch,
    ],
    { stdio: 'inherit' },
  );
  const declarations = join(scratch, 'src');
  if (!existsSync(declarations)) throw new Error('tsc wrote no declarations');
  for (const path of readdirSync(declarations, { recursive: true, encoding: 'utf8' }).filter((p) => p.endsWith('.d.ts') && isPackageModule(p))) {
    mkdirSync(dirname(join(root, 'dist', path)), { recursive: true });
    renameSync(join(declarations, path), join(root, 'dist', path));
  }
} catch (error) {
  // tsc has printed its errors; anything else gets its one line.
  if (!(error && typeof error === 'object' && 'status' in error))
    process.stderr.write(`build:types: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
