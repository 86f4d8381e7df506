import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * vitest globalSetup: one scratch directory per `vitest run`, shared by every worker, where
 * expensive fixtures are built once by the first test file that needs them (the packed and
 * npm-installed package of the e2e install tests: test/e2e/install-kit.ts). Creating it costs
 * nothing, so focused runs of unit tests pay nothing; it is removed when the run ends.
 */
export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'airspace-suite-'));
  project.provide('suiteFixtureDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    suiteFixtureDir: string;
  }
}
