import { afterAll, describe, expect, it } from 'vitest';
import { commitAll, gitIn, remoteWithClones, removeDir, runCli, writeFiles } from '../helpers/temp-repo.js';

/**
 * `check --fetch` (the pre-push fetch too) writes what the user's own `git fetch` would and nothing
 * of theirs is deleted: a remote branch deleted since the user's last fetch keeps its
 * remote-tracking ref (`fetch.prune` unset), yet it is no traffic any more, because discovery reads
 * the remote's branches from our own pruned copy (`refs/airspace/branches/<remote>/*`). A clone
 * that fetches one branch only (`remote.origin.fetch` narrowed) gets no new remote-tracking refs.
 */
const setup = remoteWithClones({ 'src/a.ts': 'export const a = 1;\n' }, 3);
const [mine, theirs, narrow] = setup.clones as [string, string, string];
afterAll(() => removeDir(setup.root));

const refsOf = (dir: string, prefix: string) => gitIn(dir, 'for-each-ref', '--format=%(refname)', prefix).split('\n').filter(Boolean);
const peersOf = (dir: string): string[] => {
  const result = runCli(dir, ['check', '--fetch', '--json']);
  expect(result.status, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { agents: { id: string }[] }).agents.map((agent) => agent.id).sort();
};

describe('the tool fetch and the user remote-tracking refs', () => {
  it('keeps a deleted branch tracking ref, drops it from the traffic, and writes only what git fetch would', () => {
    gitIn(theirs, 'switch', '-q', '-c', 'peer/gone');
    writeFiles(theirs, { 'src/gone.ts': 'export const gone = 1;\n' });
    commitAll(theirs, 'gone');
    gitIn(theirs, 'push', '-q', 'origin', 'peer/gone');
    gitIn(mine, 'fetch', '-q', 'origin');
    gitIn(narrow, 'config', 'remote.origin.fetch', '+refs/heads/main:refs/remotes/origin/main');
    gitIn(theirs, 'push', '-q', 'origin', '--delete', 'peer/gone');
    gitIn(theirs, 'switch', '-q', '-c', 'peer/live');
    writeFiles(theirs, { 'src/live.ts': 'export const live = 1;\n' });
    commitAll(theirs, 'live');
    gitIn(theirs, 'push', '-q', 'origin', 'peer/live');
    gitIn(mine, 'switch', '-q', '-c', 'me');
    gitIn(narrow, 'switch', '-q', '-c', 'narrow');

    expect(peersOf(mine)).toEqual(['me', 'peer/live']);
    // The user's ref stays until the user's own `git fetch --prune`; the new branch arrives as a
    // plain `git fetch` would bring it.
    expect(refsOf(mine, 'refs/remotes/origin/')).toEqual([
      'refs/remotes/origin/HEAD',
      'refs/remotes/origin/main',
      'refs/remotes/origin/peer/gone',
      'refs/remotes/origin/peer/live',
    ]);

    expect(peersOf(narrow)).toEqual(['narrow', 'peer/live']);
    expect(refsOf(narrow, 'refs/remotes/origin/')).toEqual(['refs/remotes/origin/HEAD', 'refs/remotes/origin/main']);
  });
});
