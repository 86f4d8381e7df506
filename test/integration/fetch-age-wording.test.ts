import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitAll, gitIn, remoteWithClones, removeDir, runCli, writeFiles } from '../helpers/temp-repo.js';

/**
 * What a pre-commit says about the age of the traffic, as a user meets it: a fresh clone that was
 * never fetched says so (not only "no traffic"); after the user's own `git fetch` it says how old
 * that fetch is (FETCH_HEAD), not "never fetched"; after the tool's fetch, the tool's age.
 */
const setup = remoteWithClones({ 'src/a.ts': 'export const a = 1;\n' }, 2);
const [mine, theirs] = setup.clones as [string, string];
afterAll(() => removeDir(setup.root));

const preCommit = (dir: string): string => {
  const result = runCli(dir, ['hook', 'pre-commit']);
  expect(result.status, result.stderr).toBe(0);
  return result.stderr;
};

describe('the fetch age in the pre-commit report', () => {
  it('a fresh clone says it never fetched; a user fetch is dated; the tool fetch is the tool age', () => {
    gitIn(mine, 'switch', '-q', '-c', 'me');
    writeFiles(mine, { 'src/a.ts': 'export const a = 2;\n' });
    const fresh = preCommit(mine);
    expect(fresh).toContain('no traffic');
    expect(fresh).toContain('traffic never fetched');

    gitIn(theirs, 'switch', '-q', '-c', 'peer/x');
    writeFiles(theirs, { 'src/b.ts': 'export const b = 1;\n' });
    commitAll(theirs, 'b');
    gitIn(theirs, 'push', '-q', 'origin', 'peer/x');
    gitIn(mine, 'fetch', '-q', 'origin');
    // Ten minutes ago, so the age in the line is the FETCH_HEAD's and not a coincidence.
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
    utimesSync(join(mine, '.git', 'FETCH_HEAD'), tenMinutesAgo, tenMinutesAgo);
    const afterUserFetch = preCommit(mine);
    expect(afterUserFetch).not.toContain('traffic never fetched');
    expect(afterUserFetch).toMatch(/branches as of your `git fetch` 10m ago; beacons never fetched/);

    expect(runCli(mine, ['check', '--fetch']).status).toBe(0);
    const afterToolFetch = preCommit(mine);
    expect(afterToolFetch).toMatch(/traffic as of \d+s ago/);
    expect(afterToolFetch).not.toContain('your `git fetch`');
  });
});
