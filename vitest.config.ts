import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/helpers/longest-first-sequencer.js';

export default defineConfig({
  test: {
    // Integration tests spawn real git processes and CLIs; two cores, so keep parallelism modest.
    maxWorkers: 2,
    // A test is a handful of CLI runs in real repositories; on a 2-core machine at load average ~20
    // (measured: 8 agents sharing it) one CLI run takes 5-15 s, and 60 s timed out two such tests.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // No detached background graph builds and no resident processes from the suite (a test that
    // wants one turns it on): a resident per temp repository would outlive its test.
    env: { AIRSPACE_GRAPH_BACKGROUND: 'off', AIRSPACE_RESIDENT: 'off' },
    reporters: ['default', './test/helpers/pass-fail-reporter.ts'],
    // One scratch directory per run for fixtures built once and shared (test/helpers/suite-fixtures.ts).
    globalSetup: ['./test/helpers/suite-fixtures.ts'],
    // Longest files first, from measured durations: a fresh clone has no vitest cache to order by.
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        // Real git, real CLIs, real hooks, in worker processes (a test's git and CLI children are
        // its own). A worker runs file after file without a fresh process each time: forking and
        // importing per file cost ~2 s of worker time between files, 30 s of the suite's wall
        // clock (docs/decisions/test-suite.md). What a file changes in process.env is the shared
        // test identity (testEnv(), the same for every file) or restored in the same test; no
        // test changes the working directory; module-level state in src/ is caches keyed by
        // repository path, and every test has its own temporary repositories.
        test: { name: 'integration', include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'], pool: 'forks', isolate: false },
      },
      {
        extends: true,
        // Pure functions and in-memory fixtures: one shared worker thread is safe and 3x cheaper
        // than a process per file (docs/decisions/test-suite.md). Runs after the integration files,
        // filling the second worker while the long ones finish.
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], pool: 'threads', isolate: false },
      },
    ],
  },
});
