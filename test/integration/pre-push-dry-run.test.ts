import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { installedClones } from '../helpers/copied-clones.js';
import { beaconsOf } from '../helpers/push-race.js';
import { commitAll, gitIn, pathWithCli, removeDir, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * git runs pre-push for `git push --dry-run` too, and tells the hook nothing of it: the hook read
 * it as a push, published a beacon announcing it (`pushing`), and a peer with the right of way
 * steered from a push that never came (src/cli/push-invocation.ts). A dry run is judged, and
 * writes nothing to the remote.
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const PATH = pathWithCli();
const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

function git(cwd: string, args: string[]) {
  return spawnSync('git', args, { cwd, env: testEnv({ PATH }), encoding: 'utf8', timeout: 120_000 });
}

describe('pre-push under git push --dry-run', () => {
  it('judges the push and publishes nothing; the real push then publishes its beacon', () => {
    const fixture = installedClones({ 'src/session.ts': numbered(40) }, 1, PATH);
    roots.push(fixture.root);
    const one = fixture.clones[0]!;
    gitIn(one, 'switch', '-q', '-c', 'one/work');
    writeFiles(one, { 'src/session.ts': numbered(40).replace('line 20\n', 'line 20 one\n') });
    commitAll(one, 'one: edit line 20');

    for (const dryRun of [['--dry-run'], ['-nv']]) {
      const tried = git(one, ['push', ...dryRun, '-u', 'origin', 'one/work']);
      expect(tried.status, tried.stderr).toBe(0);
      expect(gitIn(fixture.remote, 'for-each-ref', 'refs/airspace/')).toBe('');
      expect(gitIn(fixture.remote, 'for-each-ref', 'refs/heads/one/work')).toBe('');
      expect(tried.stderr).toContain('airspace: one/work');
      expect(tried.stderr).toContain('dry run (git push --dry-run): judged as a push, nothing published');
    }

    const pushed = git(one, ['push', '-u', 'origin', 'one/work']);
    expect(pushed.status, pushed.stderr).toBe(0);
    expect(pushed.stderr).not.toContain('dry run');
    expect(beaconsOf(fixture.remote, 'one/work').length).toBeGreaterThan(0);
  });
});
