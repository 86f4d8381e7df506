import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitAll, gitIn, remoteWithClones, removeDir, runCli, writeFiles } from '../helpers/temp-repo.js';

/**
 * `diff PEER` for peers on other machines: a pushed branch (its tip against the pair's base) and
 * an agent known only by its beacon (the work commit it published, uncommitted edits included).
 */
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

let root: string;
let alice: string;
let bob: string;
let carol: string;

beforeAll(() => {
  const setup = remoteWithClones({ 'src/session.ts': numbered(100), 'README.md': '# x\n' }, 3);
  root = setup.root;
  [alice, bob, carol] = setup.clones as [string, string, string];
  gitIn(alice, 'switch', '-q', '-c', 'alice/work');
  writeFiles(alice, { 'src/session.ts': numbered(100).replace('line 40\n', 'line 40 alice\n') });

  gitIn(bob, 'switch', '-q', '-c', 'bob/retry');
  writeFiles(bob, { 'src/session.ts': numbered(100).replace('line 44\n', 'line 44 bob\n') });
  commitAll(bob, 'bob: retry on timeout');
  gitIn(bob, 'push', '-q', 'origin', 'bob/retry');

  // carol pushes nothing: only her beacon (with an uncommitted edit) reaches the remote.
  gitIn(carol, 'switch', '-q', '-c', 'carol/draft');
  writeFiles(carol, { 'src/session.ts': numbered(100).replace('line 37\n', 'line 37 carol\n') });
  expect(runCli(carol, ['beacon', 'publish']).status).toBe(0);

  expect(runCli(alice, ['check', '--fetch', '--json']).status).toBe(0);
}, 120_000);

afterAll(() => removeDir(root));

describe('diff PEER for remote peers', () => {
  it("a pushed branch: its hunk near ours with the commit's subject", () => {
    const result = runCli(alice, ['diff', 'bob/retry', '--json', '--context', '0']);
    expect(result.stderr).toBe('');
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ peer: 'bob/retry', source: 'branch' });
    expect(report.files).toEqual([
      {
        path: 'src/session.ts',
        ownRanges: [[40, 40]],
        allHunks: false,
        subjects: ['bob: retry on timeout'],
        uncommitted: false,
        binary: false,
        hunks: [{ range: [44, 44], header: '@@ -44 +44 @@ line 43', lines: ['-line 44', '+line 44 bob'] }],
      },
    ]);
  });

  it('a beacon-only peer: the uncommitted edit it published', () => {
    const result = runCli(alice, ['diff', 'carol/draft', '--json', '--context', '0']);
    expect(result.stderr).toBe('');
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ peer: 'carol/draft', source: 'beacon' });
    expect(report.files).toHaveLength(1);
    expect(report.files[0]).toMatchObject({ path: 'src/session.ts', uncommitted: true, ownRanges: [[40, 40]] });
    expect(report.files[0].hunks[0].lines).toEqual(['-line 37', '+line 37 carol']);
  });
});
