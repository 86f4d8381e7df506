import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * CI reads one plain closing line, `N passed, N failed`, instead of vitest's own summary. Skipped
 * tests are named above it, so a skip (e.g. data missing) is never silent. Under `npm test`
 * (scripts/test.mjs, which sets AIRSPACE_TEST_COUNTS) the counts go to that file instead: the
 * closing line is printed after the house checks that ran beside the suite, and counts them too.
 */
export default class PassFailReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    const skipped: string[] = [];
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped.push(`${mod.moduleId.slice(mod.project.config.root.length + 1)} > ${test.fullName}`);
      }
      // A file that fails outside its tests (it does not load, or a beforeAll/afterAll hook throws)
      // fails the run: it must count here even when every test in it passed.
      if (mod.state() === 'failed' && ![...mod.children.allTests()].some((test) => test.result().state === 'failed')) failed++;
    }
    failed += unhandledErrors.length;
    const skippedLines = skipped.map((name) => `skipped: ${name}\n`).join('');
    const countsFile = process.env.AIRSPACE_TEST_COUNTS;
    if (countsFile) {
      writeFileSync(countsFile, JSON.stringify({ passed, failed, skipped: skipped.length }));
      process.stdout.write(`\n${skippedLines}`);
      return;
    }
    process.stdout.write(`\n${skippedLines}${passed} passed, ${failed} failed${skipped.length ? `, ${skipped.length} skipped` : ''}\n`);
  }
}
