/**
 * `npm test`: the build, the house checks and the test suite, overlapped. The suite needs only the
 * JavaScript (the CLI and hooks it runs are bin/ loading dist/), written in a few seconds without a
 * type check (scripts/transpile.mjs); the checks need nothing but the sources, except the type check
 * of bench/ and scripts/, which reads the declarations. So the checks and the declarations start
 * with the JavaScript build and run beside the suite at a lower CPU priority, filling the cores the
 * suite leaves idle (measured in docs/decisions/test-suite.md). Their results are printed after the
 * suite, and the closing line `N passed, N failed` counts a failed step as a failure. Arguments go
 * to vitest.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportSteps, runStep } from './run-steps.mjs';
import { CHECKS_BESIDE_TYPES, CHECKS_NEEDING_BUILD } from './test-steps.mjs';

const ROOT = join(import.meta.dirname, '..');
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');

/** Runs vitest in the foreground; its reporter (test/helpers/pass-fail-reporter.ts) writes the counts to `countsFile`. */
function runVitest(countsFile) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [VITEST, 'run', ...process.argv.slice(2)], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, AIRSPACE_TEST_COUNTS: countsFile },
    });
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** What the suite's reporter counted; a suite that crashed before counting is one failure. */
function readCounts(file) {
  try {
    const counts = JSON.parse(readFileSync(file, 'utf8'));
    return { passed: counts.passed, failed: counts.failed, skipped: counts.skipped };
  } catch {
    return { passed: 0, failed: 1, skipped: 0 };
  }
}

const closingLine = ({ passed, failed, skipped }) => `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`;

const background = { background: true };
// build:types type-checks the whole project as it writes the declarations: no typecheck:src beside it.
const checks = CHECKS_BESIDE_TYPES.map((name) => runStep(name, background));
const declarations = runStep('build:types', background);
// The bench type check reads the declarations: it starts once they are written, and not if they failed.
const afterDeclarations = declarations.then((types) => (types.code === 0 ? Promise.all(CHECKS_NEEDING_BUILD.map((name) => runStep(name, background))) : []));
const backgroundResults = async () => [await declarations, ...(await Promise.all(checks)), ...(await afterDeclarations)];

const build = await runStep('build:js');
if (build.code !== 0) {
  reportSteps('build', [build]);
  const failedSteps = reportSteps('beside it', await backgroundResults());
  process.stdout.write(`\nthe build failed, so the tests did not run\n${closingLine({ passed: 0, failed: 1 + failedSteps, skipped: 0 })}`);
  process.exit(1);
}

const scratch = mkdtempSync(join(tmpdir(), 'airspace-npm-test-'));
const vitestCode = await runVitest(join(scratch, 'counts.json'));
const counts = readCounts(join(scratch, 'counts.json'));
rmSync(scratch, { recursive: true, force: true });
const failedChecks = reportSteps(`build:js ${build.seconds.toFixed(1)} s; beside the suite`, await backgroundResults());
process.stdout.write(`\n${closingLine({ ...counts, failed: counts.failed + failedChecks })}`);
process.exitCode = vitestCode !== 0 || failedChecks > 0 || counts.failed > 0 ? 1 : 0;
