/**
 * Writes test/file-durations.json from a vitest JSON report, for test/helpers/longest-first-sequencer.ts:
 *   npx vitest run --reporter=default --reporter=json --outputFile.json=/tmp/vitest.json
 *   node scripts/record-test-durations.mjs /tmp/vitest.json
 * A file's time counts from its first test's start, so a long beforeAll is not in it; the order it
 * gives is still right for the files that dominate (their time is in their tests).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reportPath = process.argv[2];
if (!reportPath) {
  process.stderr.write('usage: node scripts/record-test-durations.mjs <vitest JSON report>\n');
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const seconds = {};
// A report from another checkout of the project (a fresh clone's CI run) names its files under that
// checkout: the path from its test/ directory on is the same here.
const projectPath = (name) => (name.startsWith(`${root}/`) ? relative(root, name) : name.slice(name.indexOf('/test/') + 1));
for (const file of report.testResults) {
  seconds[projectPath(file.name)] = Math.round((file.endTime - file.startTime) / 100) / 10;
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
const table = { comment: 'Seconds per test file from one measured run; only orders files (test/helpers/longest-first-sequencer.ts).', seconds: sorted };
writeFileSync(join(root, 'test', 'file-durations.json'), `${JSON.stringify(table, null, 2)}\n`);
process.stdout.write(`test/file-durations.json: ${Object.keys(sorted).length} files\n`);
