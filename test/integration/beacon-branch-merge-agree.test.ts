import { afterAll, describe, expect, it } from 'vitest';
import { commitAll, gitIn, remoteWithClones, removeDir, runCli, writeFiles } from '../helpers/temp-repo.js';

/**
 * A peer with both a pushed branch and a beacon (issue 15, item 17). Each machine merges its own
 * CURRENT work with the peer's; the peer's newest published work is the beacon's parent when it
 * descends from the pushed branch (it carries the uncommitted edits). One side used to merge with
 * the older branch tip, so the merge channel was 0 there and 1 on the other side.
 */
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const setup = remoteWithClones({ 'docs/session.txt': numbered(60) }, 2);
afterAll(() => removeDir(setup.root));

interface Link {
  a: string;
  b: string;
  level: string;
  channels: Record<string, number>;
  evidence?: unknown[];
}

function linkBetween(cwd: string, peer: string): Link {
  const result = runCli(cwd, ['check', '--fetch', '--json']);
  const report = JSON.parse(result.stdout) as { links: Link[] };
  const link = report.links.find((l) => l.a === peer || l.b === peer);
  expect(link, result.stdout.slice(0, 2000)).toBeDefined();
  return link!;
}

describe('a peer seen as a branch and as a beacon', () => {
  it('both machines score the merge channel on the same two states', () => {
    const [ada, bo] = setup.clones as [string, string];
    // ada: one pushed commit elsewhere in the file, then an uncommitted edit of line 30, published.
    gitIn(ada, 'switch', '-q', '-c', 'ada/work');
    writeFiles(ada, { 'docs/session.txt': numbered(60).replace('line 5\n', 'line 5 ada\n') });
    commitAll(ada, 'ada: pushed edit');
    gitIn(ada, 'push', '-q', '-u', 'origin', 'HEAD');
    writeFiles(ada, { 'docs/session.txt': numbered(60).replace('line 5\n', 'line 5 ada\n').replace('line 30\n', 'line 30 ada\n') });
    expect(runCli(ada, ['beacon', 'publish']).status).toBe(0);
    // bo: a pushed commit on line 30, and a beacon (its work is its branch tip).
    gitIn(bo, 'switch', '-q', '-c', 'bo/work');
    writeFiles(bo, { 'docs/session.txt': numbered(60).replace('line 30\n', 'line 30 bo\n') });
    commitAll(bo, 'bo: pushed edit');
    gitIn(bo, 'push', '-q', '-u', 'origin', 'HEAD');
    expect(runCli(bo, ['beacon', 'publish']).status).toBe(0);

    const onAda = linkBetween(ada, 'bo/work');
    const onBo = linkBetween(bo, 'ada/work');
    expect(onAda.channels.merge).toBe(1);
    expect(onBo.channels.merge).toBe(onAda.channels.merge);
    expect(onBo.level).toBe(onAda.level);
    expect(onBo.evidence?.length ?? 0).toBe(onAda.evidence?.length ?? 0);
  });

  it('a branch pushed after the beacon is the newer state and keeps its own merge channel', () => {
    const [ada, bo] = setup.clones as [string, string];
    // ada drops the conflicting edit, commits and pushes: its old beacon (with line 30) is stale.
    writeFiles(ada, { 'docs/session.txt': numbered(60).replace('line 5\n', 'line 5 ada\n').replace('line 50\n', 'line 50 ada\n') });
    commitAll(ada, 'ada: second pushed edit');
    gitIn(ada, 'push', '-q', 'origin', 'HEAD');
    const onBo = linkBetween(bo, 'ada/work');
    expect(onBo.channels.merge).toBe(0);
    expect(linkBetween(ada, 'bo/work').channels.merge).toBe(0);
  });
});
