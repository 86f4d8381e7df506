import { afterAll, describe, expect, it } from 'vitest';
import { commitAll, gitIn, remoteWithClones, removeDir, runCli, writeFiles } from '../helpers/temp-repo.js';

/**
 * Two machines on one branch name: the first pushed `feature`, the second has other commits on a
 * `feature` of its own. The tool's fetch leaves the remote's `feature` in the second clone's
 * remote-tracking ref (as a plain `git fetch` would), yet it is not the second clone's pushed work:
 * its line does not contain it. Counted as ours, the second clone took right of way from the one
 * that pushed, and its beacon claimed the first's commits, so the first refused it as a forgery
 * and saw no traffic at all: of the two, none steered.
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const setup = remoteWithClones({ 'src/a.ts': numbered(40) }, 2);
const [first, second] = setup.clones as [string, string];
afterAll(() => removeDir(setup.root));

interface Advisory {
  level: string;
  hold: string;
  steer: string;
}
const advisoriesOf = (cwd: string): Advisory[] => {
  const result = runCli(cwd, ['check', '--fetch', '--json']);
  // check exits 1 on the side that must steer.
  expect([0, 1], result.stderr).toContain(result.status);
  return (JSON.parse(result.stdout) as { advisories: Advisory[] }).advisories;
};

describe('two clones on one branch name', () => {
  it('the one that pushed holds, the other steers, and each sees the other', () => {
    gitIn(first, 'switch', '-q', '-c', 'feature');
    writeFiles(first, { 'src/a.ts': numbered(40).replace('line 10\n', 'line 10 first\n') });
    commitAll(first, 'first: line 10');
    writeFiles(first, { 'src/b.ts': 'export const b = 1;\n' });
    commitAll(first, 'first: b');
    gitIn(first, 'push', '-q', 'origin', 'feature');
    const published = runCli(first, ['beacon', 'publish']);
    expect(published.status, published.stderr + published.stdout).toBe(0);

    gitIn(second, 'switch', '-q', '-c', 'feature');
    writeFiles(second, { 'src/a.ts': numbered(40).replace('line 10\n', 'line 10 second\n') });
    commitAll(second, 'second: line 10');

    const seen = advisoriesOf(second).filter((advisory) => advisory.level === 'RA');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.steer).toBe('feature');
    expect(seen[0]!.hold).not.toBe('feature');

    expect(runCli(second, ['beacon', 'publish']).status).toBe(0);
    const back = advisoriesOf(first).filter((advisory) => advisory.level === 'RA');
    expect(back).toHaveLength(1);
    expect(back[0]!.hold).toBe('feature');
    expect(back[0]!.steer).not.toBe('feature');
  });
});
