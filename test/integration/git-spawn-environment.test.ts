import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { git, gitEnvironment } from '../../src/git/exec-git.js';
import { withRunScope } from '../../src/git/run-scope.js';
import { initRepo, removeDir } from '../helpers/temp-repo.js';

/**
 * What a git spawn costs the Node process (docs/decisions/hook-performance.md, "Cheaper spawns"):
 * no stdin pipe when there is no input, and the pinned environment built once per run instead of
 * copying process.env for every process. The per-call semantics must not move: the repository
 * variables a hook inherits (GIT_INDEX_FILE inside `git commit -a`) are kept only with
 * `inheritRepoEnv`, a call's own `env` goes on top, and outside a run a change to process.env is
 * seen by the next call (tests set GIT_TRACE2_EVENT or GIT_INDEX_FILE between calls).
 */
let repo: string;
const saved = { ...process.env };

beforeAll(() => {
  repo = initRepo({ 'a.txt': 'a\n' });
});
afterAll(() => removeDir(repo));
afterEach(() => {
  for (const name of ['GIT_INDEX_FILE', 'AIRSPACE_SPAWN_PROBE']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe('a git process without input', () => {
  // /proc/<pid>/fd/0 of the shell git starts for a `!` alias is git's own stdin.
  it.runIf(process.platform === 'linux')('gets /dev/null, not a pipe, as stdin; with input it gets a pipe (libuv makes it a socket pair)', async () => {
    const probe = ['-c', 'alias.stdin-of=!readlink /proc/$$/fd/0', 'stdin-of'];
    expect(await git(probe, { cwd: repo })).toBe('/dev/null');
    expect(await git(probe, { cwd: repo, input: 'x\n' })).toMatch(/^(pipe|socket):/);
  });
});

describe('the pinned environment', () => {
  it('is built once per run and per inheritRepoEnv, with each call’s env on top', async () => {
    process.env.GIT_INDEX_FILE = '/tmp/building-index';
    await withRunScope(new AbortController().signal, async () => {
      const plain = gitEnvironment({});
      expect(gitEnvironment({})).toBe(plain);
      expect(plain.GIT_INDEX_FILE).toBeUndefined();
      expect(plain.GIT_OPTIONAL_LOCKS).toBe('0');
      expect(plain.LC_ALL).toBe('C');
      const inherited = gitEnvironment({ inheritRepoEnv: true });
      expect(inherited).not.toBe(plain);
      expect(gitEnvironment({ inheritRepoEnv: true })).toBe(inherited);
      expect(inherited.GIT_INDEX_FILE).toBe('/tmp/building-index');
      const temp = gitEnvironment({ env: { GIT_INDEX_FILE: '/tmp/temp-index' } });
      expect(temp.GIT_INDEX_FILE).toBe('/tmp/temp-index');
      expect(temp.GIT_OPTIONAL_LOCKS).toBe('0');
      // The per-call env never leaks into the run's shared copy.
      expect(gitEnvironment({}).GIT_INDEX_FILE).toBeUndefined();
    });
  });

  it('outside a run, follows process.env from one call to the next', async () => {
    process.env.AIRSPACE_SPAWN_PROBE = 'one';
    expect(gitEnvironment({}).AIRSPACE_SPAWN_PROBE).toBe('one');
    process.env.AIRSPACE_SPAWN_PROBE = 'two';
    expect(gitEnvironment({}).AIRSPACE_SPAWN_PROBE).toBe('two');
    const probe = ['-c', 'alias.probe=!printf %s "$AIRSPACE_SPAWN_PROBE"', 'probe'];
    expect(await git(probe, { cwd: repo })).toBe('two');
  });
});
