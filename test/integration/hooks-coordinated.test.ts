import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRemoteWithClones, type RemoteWithClones } from '../helpers/copy-fixture.js';
import { installedClones } from '../helpers/copied-clones.js';
import { commitAll, gitIn, pathWithCli, removeDir, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * The coordinated resolution, end to end with the real installed hooks: two clones of one remote
 * whose agents edit the same lines. Whoever pushes first lands; the other one's pre-push is blocked
 * with the bypass printed — never both, never neither. The agent that holds is told so.
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const PATH = pathWithCli();
const roots: string[] = [];

function git(cwd: string, args: string[]) {
  return spawnSync('git', args, { cwd, env: testEnv({ PATH }), encoding: 'utf8', timeout: 120_000 });
}

// Built once, copied for each test (test/helpers/copy-fixture.ts): two clones with the hooks
// installed (one real install, copied: test/helpers/copied-clones.ts `installedClones`), each on its own branch with one commit on the same lines, nothing pushed yet.
let fixture: RemoteWithClones;

beforeAll(() => {
  fixture = installedClones({ 'src/session.ts': numbered(80), 'README.md': '# x\n' }, 2, PATH);
  roots.push(fixture.root);
  const [one, two] = fixture.clones as [string, string];
  for (const [clone, branch, tag] of [
    [one, 'one/work', 'one'],
    [two, 'two/work', 'two'],
  ] as const) {
    gitIn(clone, 'switch', '-q', '-c', branch);
    writeFiles(clone, { 'src/session.ts': numbered(80).replace('line 20\n', `line 20 ${tag}\n`).replace('line 21\n', `line 21 ${tag}\n`) });
    commitAll(clone, `${tag}: edit the session lines`);
  }
});

function twoAgents(): { one: string; two: string } {
  const setup = copyRemoteWithClones(fixture);
  roots.push(setup.root);
  const [one, two] = setup.clones as [string, string];
  return { one, two };
}

afterAll(() => roots.forEach(removeDir));

describe('two clones in a Resolution Advisory', () => {
  for (const first of ['one', 'two'] as const) {
    it(`exactly one push is blocked when ${first} pushes first`, () => {
      const agents = twoAgents();
      const [winner, loser] = first === 'one' ? [agents.one, agents.two] : [agents.two, agents.one];
      const landed = git(winner, ['push', '-u', 'origin', 'HEAD']);
      expect(landed.status, landed.stderr).toBe(0);

      const blocked = git(loser, ['push', '-u', 'origin', 'HEAD']);
      expect(blocked.status).not.toBe(0);
      expect(blocked.stderr).toContain(`RA  ${first}/work`);
      expect(blocked.stderr).toContain('steer: you must steer away');
      expect(blocked.stderr).toContain('git push --no-verify');
      expect(blocked.stderr).toContain('AIRSPACE_HOOKS=0');
      const remoteBranches = gitIn(winner, 'ls-remote', '--heads', 'origin');
      expect(remoteBranches).toContain(`refs/heads/${first}/work`);
      expect(remoteBranches).not.toContain(first === 'one' ? 'refs/heads/two/work' : 'refs/heads/one/work');

      // The blocked agent's beacon reached the remote: the winner now sees it and holds course.
      writeFiles(winner, { 'NOTES.md': 'more work\n' });
      commitAll(winner, 'more work elsewhere');
      const again = git(winner, ['push', 'origin', 'HEAD']);
      expect(again.status, again.stderr).toBe(0);
      expect(again.stderr).toContain('hold: you have right of way');

      // The documented bypass works.
      const bypass = git(loser, ['push', '--no-verify', '-u', 'origin', 'HEAD']);
      expect(bypass.status, bypass.stderr).toBe(0);
    });
  }

  it('pre-commit inside `git commit -a` warns about the RA but never blocks, and commits exactly what the user staged', () => {
    const { one, two } = twoAgents();
    expect(git(one, ['push', '-q', '-u', 'origin', 'HEAD']).status).toBe(0);
    expect(git(two, ['fetch', '-q', 'origin']).status).toBe(0);
    writeFiles(two, { 'src/session.ts': numbered(80).replace('line 21\n', 'line 21 two again\n') });
    const commit = git(two, ['commit', '-a', '-m', 'two: more session work']);
    expect(commit.status, commit.stderr).toBe(0);
    expect(commit.stderr).toContain('RA  one/work');
    expect(gitIn(two, 'show', 'HEAD:src/session.ts')).toContain('line 21 two again');
    expect(gitIn(two, 'status', '--porcelain')).toBe('');
  });
});
