import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitAll, gitIn, remoteWithClones, removeDir, runCli, writeFiles } from '../helpers/temp-repo.js';

/**
 * The transponder through the CLI: what one clone has not pushed (uncommitted edits, declared
 * intent) reaches the other clone through its beacon on the shared remote — and a hostile beacon
 * on that remote is skipped with a note while the scan goes on.
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;

let root: string;
let remote: string;
let alice: string;
let bob: string;

beforeAll(() => {
  const setup = remoteWithClones({ 'src/session.ts': numbered(100), 'src/billing.ts': numbered(50), 'README.md': '# x\n' }, 2);
  ({ root, remote } = setup);
  [alice, bob] = setup.clones as [string, string];
  gitIn(alice, 'switch', '-q', '-c', 'alice/work');
  gitIn(bob, 'switch', '-q', '-c', 'bob/work');
});

afterAll(() => removeDir(root));

describe('beacons through the CLI', () => {
  it('declared intent makes two agents converge before either edits', () => {
    // `intent list` after a declaration is proven in claude-code-example.test.ts and
    // install-claude-code.test.ts; here bob's report below shows the intent the beacon carried.
    expect(runCli(alice, ['intent', 'add', 'src/session.ts']).status).toBe(0);
    const published = runCli(alice, ['beacon', 'publish', '--note', 'refactoring sessions']);
    expect(published.status, published.stderr).toBe(0);
    expect(published.stdout).toContain('refs/airspace/beacons/');

    // bob starts editing the very file alice announced, before she wrote a line of it
    writeFiles(bob, { 'src/session.ts': numbered(100).replace('line 40\n', 'line 40 bob\n') });
    const report = JSON.parse(runCli(bob, ['check', '--fetch', '--json']).stdout);
    const link = report.links.find((l: { a: string; b: string }) => [l.a, l.b].includes('alice/work'));
    expect(link, JSON.stringify(report.unknown)).toBeDefined();
    expect(link.level).not.toBe('clear');
    const peer = report.agents.find((a: { id: string }) => a.id === 'alice/work');
    expect(peer.kind).toBe('beacon');
    expect(peer.intent).toEqual(['src/session.ts']);
    expect(peer.note).toBe('refactoring sessions');
  });

  it("a peer's uncommitted edit reaches the other clone through its beacon", () => {
    runCli(alice, ['intent', 'clear']);
    writeFiles(alice, { 'src/session.ts': numbered(100).replace('line 40\n', 'line 40 alice\n') });
    expect(runCli(alice, ['beacon', 'publish']).status).toBe(0);
    const report = JSON.parse(runCli(bob, ['check', '--fetch', '--json']).stdout);
    const link = report.links.find((l: { a: string; b: string }) => [l.a, l.b].includes('alice/work'));
    expect(link.sharedFiles.map((f: { path: string }) => f.path)).toEqual(['src/session.ts']);
    const shared = link.sharedFiles[0];
    const aliceRanges = link.a === 'alice/work' ? shared.rangesA : shared.rangesB;
    expect(aliceRanges).toEqual([[40, 40]]);
    expect(['TA', 'RA']).toContain(link.level);
  });

  it('hostile beacons on the remote are skipped with a note; the scan still works', () => {
    // A beacon ref whose blob is not JSON, and one whose id carries a terminal escape sequence.
    const blob = spawnBlob(alice, '{ this is not json');
    gitIn(alice, 'push', '-q', remote, `${blob}:refs/airspace/beacons/mallory`);
    const evil = spawnBlob(
      alice,
      JSON.stringify({
        schema: 1,
        agent: 'evil\u001b]0;pwned\u0007',
        branch: null,
        head: 'x',
        base: null,
        workingSet: { base: null, files: [{ file: '../../etc/passwd', status: 'M' }] },
        intent: [],
        committedWork: 0,
        startedAt: null,
        updatedAt: Date.now(),
      }),
    );
    gitIn(alice, 'push', '-q', remote, `${evil}:refs/airspace/beacons/evil`);
    const result = runCli(bob, ['check', '--fetch']);
    expect(result.stdout).toContain('alice/work');
    expect(result.stdout).toMatch(/beacon refs\/airspace\/remote\/beacons\/mallory ignored/);
    expect(result.stdout).toMatch(/beacon refs\/airspace\/remote\/beacons\/evil ignored/);
    expect(result.stdout).not.toContain('\u001b]0;');
    expect(result.stdout).not.toContain('/etc/passwd');
  });

  it('beacon list and clear act on the remote', () => {
    expect(runCli(bob, ['beacon', 'list']).stdout).toContain('alice/work');
    expect(runCli(alice, ['beacon', 'clear']).status).toBe(0);
    expect(runCli(bob, ['beacon', 'list']).stdout).not.toContain('alice/work');
    commitAll(alice, 'keep the tree clean');
  });
});

function spawnBlob(cwd: string, content: string): string {
  return execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd, input: content, encoding: 'utf8' }).trim();
}
