// Writes the package's declarations (dist/**/*.d.ts). `npm test` runs this beside the test suite,
// whose install tests `npm pack` dist/ (test/e2e/install-kit.ts): tsc writes into a scratch
// directory and each finished file is then renamed into dist/, so a pack never reads a
// half-written declaration.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = join(root, 'node_modules', '.cache', 'airspace-hooks', `declarations-${process.pid}`);
rmSync(scratch, { recursive: true, force: true });
try {
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json'), '--emitDeclarationOnly', '--outDir', scratch],
    { stdio: 'inherit' },
  );
  for (const path of readdirSync(scratch, { recursive: true, encoding: 'utf8' }).filter((p) => p.endsWith('.d.ts'))) {
    mkdirSync(dirname(join(root, 'dist', path)), { recursive: true });
    renameSync(join(scratch, path), join(root, 'dist', path));
  }
} catch {
  // tsc has printed its errors.
  process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
