import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitAll, gitIn, initRepo, removeDir, runCli, userStateFingerprint, writeFiles } from '../helpers/temp-repo.js';

/**
 * `diff PEER [FILE]` between linked worktrees: the peer's hunks near ours (committed and
 * uncommitted), far ones left out, FILE showing a file we have not touched, caps that say what they
 * cut, hostile bytes in the peer's lines and subjects made harmless — and nothing written.
 */
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const ESC = '\u001b';

let main: string;
let ada: string;

beforeAll(() => {
  main = initRepo({ 'src/session.ts': numbered(200), 'src/other.ts': numbered(20), 'docs/notes.md': numbered(10) });
  ada = join(main, '..', `${main.split('/').pop()}-ada`);
  gitIn(main, 'worktree', 'add', '-q', '-b', 'ada/timeout', ada);
  let session = numbered(200).replace('line 32\n', 'line 32 ada\n').replace('line 150\n', 'line 150 far away\n');
  writeFiles(ada, { 'src/session.ts': session, 'src/other.ts': numbered(20).replace('line 5\n', '\tline 5 ada\t// tabbed\n') });
  commitAll(ada, `ada: timeout ${ESC}]0;pwned${ESC}\\ tweak`);
  session = session.replace('line 36\n', `line 36 draft ${ESC}[2J\n`);
  writeFiles(ada, { 'src/session.ts': session, 'docs/notes.md': numbered(10).replace('line 2\n', 'line 2 ada\n') });
  writeFiles(main, { 'src/session.ts': numbered(200).replace('line 30\n', 'line 30 ours\n') });
});

afterAll(() => {
  for (const dir of [ada, main]) removeDir(dir);
});

const diffJson = (args: readonly string[], cwd = main) => {
  const result = runCli(cwd, ['diff', ...args, '--json']);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout);
};

describe('diff PEER between worktrees', () => {
  it("keeps the peer's tabs: the hunk an agent reads or applies is the peer's bytes (text and --json)", () => {
    const report = diffJson(['ada/timeout', 'src/other.ts', '--context', '0']);
    expect(report.files[0].hunks.flatMap((h: { lines: string[] }) => h.lines)).toEqual(['-line 5', '+\tline 5 ada\t// tabbed']);
    const text = runCli(main, ['diff', 'ada/timeout', 'src/other.ts', '--context', '0']);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain('+\tline 5 ada\t// tabbed');
  });

  it("shows the peer's near hunks, committed and uncommitted, with the subject; far hunks and untouched files stay out", () => {
    const before = [userStateFingerprint(main), userStateFingerprint(ada)];
    const report = diffJson(['ada/timeout', '--context', '0']);
    expect(report).toMatchObject({
      schema: 'airspace-hooks/peer-diff@1',
      peer: 'ada/timeout',
      source: 'worktree',
      near: 20,
      cut: { files: 0, hunks: 0, bytes: 0 },
    });
    expect(report.files.map((f: { path: string }) => f.path)).toEqual(['src/session.ts']);
    const file = report.files[0];
    expect(file).toMatchObject({ ownRanges: [[30, 30]], allHunks: false, uncommitted: true });
    expect(file.hunks.map((h: { range: number[] }) => h.range)).toEqual([
      [32, 32],
      [36, 36],
    ]);
    expect(file.hunks.flatMap((h: { lines: string[] }) => h.lines)).toEqual(['-line 32', '+line 32 ada', '-line 36', '+line 36 draft \\u001b[2J']);
    expect(file.subjects).toEqual(['ada: timeout \\u001b]0;pwned\\u001b\\ tweak']);
    expect(JSON.stringify(report)).not.toContain(ESC);
    expect([userStateFingerprint(main), userStateFingerprint(ada)]).toEqual(before);
  });

  it('--near narrows what counts as near', () => {
    const report = diffJson(['ada/timeout', '--near', '3', '--context', '0']);
    expect(report.files[0].hunks.map((h: { range: number[] }) => h.range)).toEqual([[32, 32]]);
    expect(diffJson(['ada/timeout', '--near', '0', '--context', '0']).files).toEqual([]);
  });

  it('FILE shows every peer hunk in a file we have not touched, the worktree folder name works as PEER, and paths read from a subdirectory', () => {
    const report = diffJson([ada.split('/').pop()!, 'notes.md'], join(main, 'docs'));
    expect(report.files).toHaveLength(1);
    expect(report.files[0]).toMatchObject({ path: 'docs/notes.md', allHunks: true, ownRanges: null, uncommitted: true, subjects: [] });
    expect(report.files[0].hunks).toHaveLength(1);
  });

  it('caps hunks and bytes and says what was cut', () => {
    const report = diffJson(['ada/timeout', '--max-hunks', '1', '--context', '0']);
    expect(report.files[0].hunks).toHaveLength(1);
    expect(report.cut.hunks).toBe(1);
    const bytes = diffJson(['ada/timeout', '--max-bytes', '30']);
    expect(bytes.cut.bytes).toBeGreaterThan(0);
    const text = runCli(main, ['diff', 'ada/timeout', '--max-hunks', '1', '--context', '0']).stdout;
    expect(text).toContain('cut to stay small: 1 more hunk');
  });

  it('renders a readable diff on the terminal', () => {
    const result = runCli(main, ['diff', 'ada/timeout']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('ada/timeout (worktree): hunks in 1 file within 20 lines of your changes');
    expect(result.stdout).toContain('--- src/session.ts   yours: 30   (includes their uncommitted work)');
    expect(result.stdout).toContain('+line 32 ada');
    expect(result.stdout).not.toContain(ESC);
  });

  it('an unknown peer or a bad number is one line, exit 2', () => {
    const unknown = runCli(main, ['diff', 'nobody']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr.trim()).toBe('airspace-hooks: no peer "nobody" in this airspace (known: ada/timeout)');
    const bad = runCli(main, ['diff', 'ada/timeout', '--near', '-1']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});
