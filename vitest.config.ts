import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Integration tests spawn real git processes and CLIs; two cores, so keep parallelism modest.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // No detached background graph builds from the suite (a test that wants one turns it on).
    env: { AIRSPACE_GRAPH_BACKGROUND: 'off' },
    reporters: ['default', './test/helpers/pass-fail-reporter.ts'],
  },
});
