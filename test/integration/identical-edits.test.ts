import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitAll, gitIn, remoteWithClones, removeDir, runCli, writeFiles } from '../helpers/temp-repo.js';

/**
 * Both sides making the same change (a backport, a shared fix) merge cleanly in git, so the hook
 * must not warn; one extra line that differs is a real difference and still warns.
 */
const numbered = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const fix = (text: string): string => text.replace('line 10\n', 'line 10 fixed\n').replace('line 11\n', 'line 11 fixed\n');

let root: string;
let alice: string;
let bob: string;

beforeAll(() => {
  const setup = remoteWithClones({ 'src/session.ts': numbered(80), 'src/util.ts': numbered(30) }, 2);
  root = setup.root;
  [alice, bob] = setup.clones as [string, string];
  gitIn(alice, 'switch', '-q', '-c', 'alice/fix');
  writeFiles(alice, { 'src/session.ts': fix(numbered(80)), 'src/util.ts': numbered(30).replace('line 3\n', 'line 3 alice\n') });
  commitAll(alice, 'alice: fix');
  gitIn(alice, 'push', '-q', 'origin', 'alice/fix');
  gitIn(bob, 'switch', '-q', '-c', 'bob/fix');
});

afterAll(() => removeDir(root));

const linkWithAlice = (): { level: string } | undefined => {
  const result = runCli(bob, ['check', '--fetch', '--json']);
  expect(result.stderr).toBe('');
  const report = JSON.parse(result.stdout) as { links: { a: string; b: string; level: string }[] };
  return report.links.find((l) => [l.a, l.b].includes('alice/fix'));
};

describe('identical edits', () => {
  it('the same change on both sides (committed, and the same file content) is clear', () => {
    writeFiles(bob, { 'src/session.ts': fix(numbered(80)) });
    commitAll(bob, 'bob: the same fix');
    expect(linkWithAlice()?.level ?? 'clear').toBe('clear');
  });

  it('the same hunk next to a different one elsewhere in the file is clear too', () => {
    // Alice's util.ts and bob's differ as files; their only common hunk is identical.
    writeFiles(bob, { 'src/util.ts': numbered(30).replace('line 3\n', 'line 3 alice\n').replace('line 28\n', 'line 28 bob\n') });
    commitAll(bob, 'bob: util');
    expect(linkWithAlice()?.level ?? 'clear').toBe('clear');
  });

  it('one extra line that differs, inside the shared change, is still a warning', () => {
    writeFiles(bob, { 'src/session.ts': fix(numbered(80)).replace('line 12\n', 'line 12 bob\n') });
    commitAll(bob, 'bob: one more line');
    expect(['TA', 'RA']).toContain(linkWithAlice()?.level);
  });
});
