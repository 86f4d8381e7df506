import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Longest files first. With two workers the suite ends when its last file does, so a 40 s file that
 * starts last is a 40 s tail. vitest orders by the durations it cached on this machine, and a fresh
 * clone (CI) has none, so it falls back to file size — and the demo's test, one of the smallest
 * files, is one of the longest. test/file-durations.json holds seconds per file from a measured run
 * (`node scripts/record-test-durations.mjs <vitest --reporter=json output>`); a file it does not
 * know runs first, as vitest runs unknown files first. Order is all it changes: a stale table costs
 * time, never a result.
 */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const seconds = recordedSeconds();
    const projectRank = new Map<string, number>();
    for (const spec of ordered) if (!projectRank.has(spec.project.name)) projectRank.set(spec.project.name, projectRank.size);
    const weight = (spec: TestSpecification) => seconds[relative(spec.project.config.root, spec.moduleId)] ?? Number.POSITIVE_INFINITY;
    return [...ordered].sort((a, b) => (projectRank.get(a.project.name) ?? 0) - (projectRank.get(b.project.name) ?? 0) || weight(b) - weight(a));
  }
}

function recordedSeconds(): Record<string, number> {
  try {
    const table = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'file-durations.json'), 'utf8')) as { seconds?: Record<string, number> };
    return table.seconds ?? {};
  } catch {
    return {};
  }
}
