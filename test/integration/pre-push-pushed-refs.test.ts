import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRemoteWithClones, type RemoteWithClones } from '../helpers/copy-fixture.js';
import { installedClones } from '../helpers/copied-clones.js';
import { commitAll, gitIn, pathWithCli, removeDir, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * pre-push judges what is pushed, not what is checked out: each pushed ref (git's stdin lines)
 * is the ownship under the branch name peers will see, against that remote's traffic.
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const PATH = pathWithCli();
const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

// Two clones with the hooks installed (one real install, copied: test/helpers/copied-clones.ts `installedClones`),
// and one's colliding edit of line 20 pushed through its pre-push hook: the same start in both
// tests, built once and copied for each (test/helpers/copy-fixture.ts).
let fixture: RemoteWithClones;
beforeAll(() => {
  fixture = installedClones({ 'src/session.ts': numbered(60), 'src/other.ts': numbered(60), 'docs/guide.md': numbered(10) }, 2, PATH);
  roots.push(fixture.root);
  const one = fixture.clones[0]!;
  gitIn(one, 'switch', '-q', '-c', 'one/work');
  writeFiles(one, { 'src/session.ts': numbered(60).replace('line 20\n', 'line 20 one\n') });
  commitAll(one, 'one: edit line 20');
  const pushed = git(one, ['push', '-q', '-u', 'origin', 'one/work']);
  expect(pushed.status, pushed.stderr).toBe(0);
});

function git(cwd: string, args: string[]) {
  return spawnSync('git', args, { cwd, env: testEnv({ PATH }), encoding: 'utf8', timeout: 120_000 });
}

describe('pre-push judges each pushed ref', () => {
  it('on a branch in an RA, pushing another branch goes through; pushing the colliding branch is blocked', () => {
    const setup = copyRemoteWithClones(fixture);
    roots.push(setup.root);
    const two = setup.clones[1]!;
    gitIn(two, 'switch', '-q', '-c', 'two/work');
    writeFiles(two, { 'src/session.ts': numbered(60).replace('line 20\n', 'line 20 two\n') });
    commitAll(two, 'two: edit line 20');

    // two is checked out on two/work (which collides) but pushes a separate docs branch.
    gitIn(two, 'branch', 'docs/typo', 'main');
    gitIn(two, 'worktree', 'add', '-q', '../two-docs', 'docs/typo');
    const docs = `${two}/../two-docs`;
    writeFiles(docs, { 'docs/guide.md': numbered(10).replace('line 2\n', 'line two\n') });
    commitAll(docs, 'docs: typo');
    const other = git(two, ['push', 'origin', 'docs/typo']);
    expect(other.status, other.stderr).toBe(0);
    expect(other.stderr).not.toContain('RA ');

    // Pushing main (unchanged) from the colliding worktree is not judged as two/work either.
    const trunk = git(two, ['push', 'origin', 'main']);
    expect(trunk.status, trunk.stderr).toBe(0);

    const colliding = git(two, ['push', 'origin', 'two/work']);
    expect(colliding.status).not.toBe(0);
    expect(colliding.stderr).toContain('RA  one/work');
    expect(colliding.stderr).toContain('git push --no-verify');
  });

  it('a push of several refs blocked for one says the others were held back too, and how to push them alone', () => {
    const setup = copyRemoteWithClones(fixture);
    roots.push(setup.root);
    const two = setup.clones[1]!;
    gitIn(two, 'branch', 'docs/typo', 'main');
    gitIn(two, 'switch', '-q', '-c', 'two/work');
    writeFiles(two, { 'src/session.ts': numbered(60).replace('line 20\n', 'line 20 two\n') });
    commitAll(two, 'two: edit line 20');
    const both = git(two, ['push', 'origin', 'docs/typo', 'two/work']);
    expect(both.status).not.toBe(0);
    expect(both.stderr).toContain('RA  one/work');
    expect(both.stderr).toContain('git refuses the whole push, so docs/typo was not pushed either; to push it alone: git push origin docs/typo');
    expect(gitIn(two, 'ls-remote', 'origin', 'refs/heads/docs/typo')).toBe('');
  });

  it('judges the pushed commit, not uncommitted work in the worktree', () => {
    const setup = copyRemoteWithClones(fixture);
    roots.push(setup.root);
    const two = setup.clones[1]!;
    gitIn(two, 'switch', '-q', '-c', 'two/work');
    writeFiles(two, { 'src/other.ts': numbered(60).replace('line 5\n', 'line 5 two\n') });
    commitAll(two, 'two: other file');
    // Uncommitted, colliding, and not part of the push.
    writeFiles(two, { 'src/session.ts': numbered(60).replace('line 20\n', 'line 20 two\n') });
    const pushed = git(two, ['push', 'origin', 'two/work']);
    expect(pushed.status, pushed.stderr).toBe(0);
    expect(pushed.stderr).not.toContain('RA ');
  });
});
