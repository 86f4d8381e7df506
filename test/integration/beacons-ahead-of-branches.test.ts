import { afterAll, describe, expect, it } from 'vitest';
import { commitAll, gitIn, remoteWithClones, removeDir, runCli, writeFiles } from '../helpers/temp-repo.js';

/**
 * Issue 24, item 10: "MaxListenersExceededWarning on every run with 9+ peers". Reproduced with
 * peers whose beacon is ahead of their pushed branch (an agent that pushed, then committed on and
 * published again): each such beacon was asked `merge-base --is-ancestor` at once, one git process
 * per beacon and one abort listener each on the run's signal, 11 beacons → 13 listeners and the
 * warning on stderr. Git processes are bounded like everywhere else (4 in flight).
 */
const PEERS = 11;
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

describe('many peers whose beacon is ahead of their pushed branch', () => {
  it('are all judged, with no MaxListenersExceededWarning', () => {
    const setup = remoteWithClones({ 'src/a.txt': numbered(40), 'src/b.txt': numbered(40) }, 2);
    roots.push(setup.root);
    const [peers, own] = setup.clones as [string, string];
    for (let i = 1; i <= PEERS; i++) {
      gitIn(peers, 'switch', '-q', '-c', `peer-${i}`, 'main');
      writeFiles(peers, { 'src/a.txt': numbered(40).replace(`line ${i}\n`, `line ${i} pushed\n`) });
      commitAll(peers, `peer ${i}: pushed`);
      gitIn(peers, 'push', '-q', '--no-verify', 'origin', `peer-${i}`);
      writeFiles(peers, { 'src/b.txt': numbered(40).replace(`line ${i}\n`, `line ${i} local\n`) });
      commitAll(peers, `peer ${i}: not pushed`);
      expect(runCli(peers, ['beacon', 'publish']).status).toBe(0);
    }
    writeFiles(own, { 'src/b.txt': numbered(40).replace('line 20\n', 'line 20 own\n') });
    const check = runCli(own, ['check', '--fetch', '--json']);
    expect(check.stderr).not.toContain('MaxListenersExceededWarning');
    const report = JSON.parse(check.stdout) as { agents: { id: string; kind: string }[] };
    expect(report.agents.filter((a) => a.id.startsWith('peer-') && a.kind === 'branch')).toHaveLength(PEERS);
  });
});
