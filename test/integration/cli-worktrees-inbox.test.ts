import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitIn, initRepo, removeDir, runCli, userStateFingerprint, writeFiles } from '../helpers/temp-repo.js';

/**
 * Parallel AI agents in linked worktrees of one repository: their uncommitted work is traffic,
 * a Traffic Advisory leaves the sender's intent in the peer worktree's inbox (shown once), and the
 * messages go away when the pair is clear again.
 */
// Comment lines: a file that parses as TypeScript has its imports read directly when the import
// graph refreshes after an edit; "line 1" text is not TypeScript and sent every edited file to
// dependency-cruiser, loading it (≈1.8 s CPU) on each check that followed an edit in the other worktree.
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `// line ${i + 1}`).join('\n')}\n`;

let main: string;
let ada: string;
let cy: string;

beforeAll(() => {
  main = initRepo({ 'src/session.ts': numbered(100), 'src/billing/tax.ts': numbered(30) });
  ada = join(main, '..', `${main.split('/').pop()}-ada`);
  cy = join(main, '..', `${main.split('/').pop()}-cy`);
  gitIn(main, 'worktree', 'add', '-q', '-b', 'ada/timeout', ada);
  gitIn(main, 'worktree', 'add', '-q', '-b', 'cy/cache', cy);
  writeFiles(ada, { 'src/session.ts': numbered(100).replace('line 30\n', 'line 30 ada\n') });
  writeFiles(cy, { 'src/billing/tax.ts': numbered(30).replace('line 3\n', 'line 3 cy\n') });
});

afterAll(() => {
  for (const dir of [ada, cy, main]) removeDir(dir);
});

describe('worktrees of one repository', () => {
  // One test for what used to be two: the check that sends the TA also proves that another
  // worktree's uncommitted edit is traffic and that checking changes neither worktree, and the
  // check after the intent is dropped proves the pair of edits in different files is clear (before,
  // a check of its own in a first test: one more CLI run).
  it("another worktree's uncommitted edit is traffic (checking changes neither worktree); a TA delivers the sender intent to the peer inbox, shown once, cleared when the pair is clear", () => {
    expect(runCli(cy, ['intent', 'add', 'src/session.ts']).status).toBe(0);
    const before = [userStateFingerprint(ada), userStateFingerprint(cy)];
    const cyReport = JSON.parse(runCli(cy, ['check', '--json']).stdout);
    expect([userStateFingerprint(ada), userStateFingerprint(cy)]).toEqual(before);
    const adaAgent = cyReport.agents.find((a: { id: string }) => a.id === 'ada/timeout');
    expect(adaAgent).toMatchObject({ kind: 'worktree', uncommittedFiles: 1 });
    expect(cyReport.scanned.peers.worktrees).toBe(2);
    const link = cyReport.advisories.find((l: { a: string; b: string }) => [l.a, l.b].includes('ada/timeout'));
    expect(link?.level).toBe('TA');

    const first = runCli(ada, ['check']);
    expect(first.stdout).toContain('messages from other agents:');
    expect(first.stdout).toMatch(/TA cy\/cache: touching src\/session\.ts.*intent: src\/session\.ts/);
    const second = runCli(ada, ['check']);
    expect(second.stdout).not.toContain('messages from other agents:');
    const inbox = JSON.parse(runCli(ada, ['inbox', '--json']).stdout);
    expect(inbox.messages).toHaveLength(1);
    expect(inbox.messages[0]).toMatchObject({ from: 'cy/cache', to: 'ada/timeout', level: 'TA', intent: ['src/session.ts'] });

    // cy steers: drops the intent; the next check sees a clear pair and both inboxes forget it.
    runCli(cy, ['intent', 'clear']);
    const clear = JSON.parse(runCli(cy, ['check', '--json']).stdout);
    expect(clear.advisories.filter((l: { a: string; b: string }) => [l.a, l.b].includes('ada/timeout'))).toEqual([]);
    expect(clear.links.find((l: { a: string; b: string }) => [l.a, l.b].includes('ada/timeout')).level).toBe('clear');
    expect(JSON.parse(runCli(ada, ['inbox', '--json']).stdout).messages).toEqual([]);
  });

  it('repeated checks build a risk history and report the closure rate', () => {
    runCli(cy, ['intent', 'add', 'src/session.ts']);
    runCli(cy, ['check', '--json']);
    writeFiles(cy, { 'src/session.ts': numbered(100).replace('line 31\n', 'line 31 cy\n') });
    const report = JSON.parse(runCli(cy, ['check', '--json']).stdout);
    const link = report.links.find((l: { a: string; b: string }) => [l.a, l.b].includes('ada/timeout'));
    expect(typeof link.closureRate).toBe('number');
    expect(link.closureRate).toBeGreaterThan(0);
  });
});
