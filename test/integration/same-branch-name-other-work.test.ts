import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { commitAll, gitIn, pathWithCli, remoteWithClones, removeDir, runCli, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * The other machine pushed `feature` and published no beacon (an older release, `--no-verify`, a
 * CI job): its branch is the only sign of it. This clone has a `feature` of its own that does not
 * contain that push. Left out of the traffic as "our branch", the collision surfaced only at the
 * pull. Our own earlier push of the branch, amended since, is not another agent.
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const setup = remoteWithClones({ 'src/a.ts': numbered(40) }, 2);
const [first, second] = setup.clones as [string, string];
afterAll(() => removeDir(setup.root));

interface Report {
  advisories: { level: string; hold: string; steer: string; agents: string[] }[];
  agents: { id: string }[];
}
const reportOf = (cwd: string): Report => {
  const result = runCli(cwd, ['check', '--fetch', '--json']);
  expect([0, 1], result.stderr).toContain(result.status);
  return JSON.parse(result.stdout) as Report;
};

describe('the remote branch of our name with work we do not have', () => {
  it('is traffic of its own, which holds, and this clone steers', () => {
    gitIn(first, 'switch', '-q', '-c', 'feature');
    writeFiles(first, { 'src/a.ts': numbered(40).replace('line 10\n', 'line 10 first\n') });
    commitAll(first, 'first: line 10');
    gitIn(first, 'push', '-q', '--no-verify', 'origin', 'feature');

    gitIn(second, 'switch', '-q', '-c', 'feature');
    writeFiles(second, { 'src/a.ts': numbered(40).replace('line 10\n', 'line 10 second\n') });
    commitAll(second, 'second: line 10');

    const report = reportOf(second);
    const ras = report.advisories.filter((advisory) => advisory.level === 'RA');
    expect(ras).toHaveLength(1);
    expect(ras[0]!.hold).toBe('feature@origin');
    expect(ras[0]!.steer).toBe('feature');
  });

  it('our own pushed tip, amended since, is not traffic', () => {
    writeFiles(first, { 'src/a.ts': numbered(40).replace('line 10\n', 'line 10 first, amended\n') });
    gitIn(first, 'commit', '-q', '-a', '--amend', '--no-edit', '--no-verify');
    const report = reportOf(first);
    expect(report.advisories.filter((advisory) => advisory.hold === 'feature@origin' || advisory.steer === 'feature@origin')).toEqual([]);
    // The other clone's work is not on the remote: nothing to meet, and not our own old tip either.
    expect(report.advisories.filter((advisory) => advisory.level === 'RA')).toEqual([]);

    // The installed pre-push lets the force push of the amended commit through: no block by our old self.
    const PATH = pathWithCli();
    expect(runCli(first, ['install', '--force'], { PATH }).status).toBe(0);
    const pushed = spawnSync('git', ['push', '--force', 'origin', 'feature'], { cwd: first, env: testEnv({ PATH }), encoding: 'utf8', timeout: 120_000 });
    expect(pushed.status, pushed.stderr).toBe(0);
    expect(pushed.stderr).not.toContain('feature@origin');
    expect(gitIn(first, 'rev-parse', 'origin/feature').trim()).toBe(gitIn(first, 'rev-parse', 'HEAD').trim());
  });
});
