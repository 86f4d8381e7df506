/**
 * `npm test`: the build, the house checks and the test suite, overlapped. The suite needs the
 * build (the CLI and hooks it runs are bin/ loading dist/); the checks need nothing but the sources,
 * except the type check of bench/ and scripts/, which reads dist/. So the checks start with the
 * build and run beside the suite at a lower CPU priority, filling the cores the suite leaves idle
 * (measured in docs/decisions/test-suite.md). Their results are printed after the suite, and the
 * closing line `N passed, N failed` counts a failed check as a failure. Arguments go to vitest.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportSteps, runStep } from './run-steps.mjs';
import { CHECKS_NEEDING_BUILD, CHECKS_WITHOUT_BUILD } from './test-steps.mjs';

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

const checks = CHECKS_WITHOUT_BUILD.map((name) => runStep(name, { background: true }));
const build = await runStep('build');
if (build.code !== 0) {
  reportSteps('build', [build]);
  const failedChecks = reportSteps('check', await Promise.all(checks));
  process.stdout.write(`\nthe build failed, so the tests did not run\n${closingLine({ passed: 0, failed: 1 + failedChecks, skipped: 0 })}`);
  process.exit(1);
}
checks.push(...CHECKS_NEEDING_BUILD.map((name) => runStep(name, { background: true })));

const scratch = mkdtempSync(join(tmpdir(), 'airspace-npm-test-'));
const vitestCode = await runVitest(join(scratch, 'counts.json'));
const counts = readCounts(join(scratch, 'counts.json'));
rmSync(scratch, { recursive: true, force: true });
const failedChecks = reportSteps(`build ${build.seconds.toFixed(1)} s; check`, await Promise.all(checks));
process.stdout.write(`\n${closingLine({ ...counts, failed: counts.failed + failedChecks })}`);
process.exitCode = vitestCode !== 0 || failedChecks > 0 || counts.failed > 0 ? 1 : 0;
