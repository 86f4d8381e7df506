/**
 * `npm run check`: the house checks (types, lint + format, dead code, layers) at once. They are
 * independent and each is mostly one single-threaded process, so on two cores running them
 * together takes about as long as the slowest, not the sum (docs/decisions/test-suite.md has the
 * numbers). Each step's output is printed only when it fails, with its name; the exit code is 1
 * when any step failed. The type check of bench/ and scripts/ reads dist/: run `npm run build` first.
 */
import { CHECKS_NEEDING_BUILD, CHECKS_WITHOUT_BUILD } from './test-steps.mjs';
import { reportSteps, runStep } from './run-steps.mjs';

const results = await Promise.all([...CHECKS_WITHOUT_BUILD, ...CHECKS_NEEDING_BUILD].map((name) => runStep(name)));
process.exitCode = reportSteps('check', results) > 0 ? 1 : 0;
