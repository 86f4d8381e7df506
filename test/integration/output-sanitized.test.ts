import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitAll, gitIn, initRepo, removeDir, remoteWithClones, runCli, writeFiles } from '../helpers/temp-repo.js';

/**
 * Every output path cleans peer-controlled text alike (issue 15, item 4): `inbox --json` passed a
 * U+202E from a commit subject through. Text output already removed it; JSON output printed it
 * raw, and so did error lines. Bidi overrides, escape sequences, C0 and C1 controls must reach no
 * output, text or JSON.
 */
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const HOSTILE_SUBJECT = 'fix \u202eexe.txt\u202c \u001b]0;pwned\u0007 \u009b31m login';
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this pattern finds
const UNSAFE = /[\u202a-\u202e\u2066-\u2069\u0080-\u009f\u001b]/;

let main: string;
let ada: string;
let cy: string;

beforeAll(() => {
  main = initRepo({ 'docs/session.txt': numbered(100) });
  ada = join(main, '..', `${main.split('/').pop()}-ada`);
  cy = join(main, '..', `${main.split('/').pop()}-cy`);
  gitIn(main, 'worktree', 'add', '-q', '-b', 'ada/timeout', ada);
  gitIn(main, 'worktree', 'add', '-q', '-b', 'cy/cache', cy);
  writeFiles(ada, { 'docs/session.txt': numbered(100).replace('line 30\n', 'line 30 ada\n') });
  writeFiles(cy, { 'docs/session.txt': numbered(100).replace('line 31\n', 'line 31 cy\n') });
  commitAll(cy, HOSTILE_SUBJECT);
});

afterAll(() => {
  for (const dir of [ada, cy, main]) removeDir(dir);
});

describe('peer text in every output path', () => {
  it('inbox --json and check --json carry the subject without the bidi override or escapes', () => {
    expect(runCli(cy, ['intent', 'add', 'docs/session.txt']).status).toBe(0);
    const sent = runCli(cy, ['check', '--json']);
    expect(sent.stdout).not.toMatch(UNSAFE);
    expect(JSON.parse(sent.stdout).advisories.length).toBeGreaterThan(0);

    const inbox = runCli(ada, ['inbox', '--json']);
    expect(inbox.status).toBe(0);
    const messages = JSON.parse(inbox.stdout).messages;
    expect(messages).toHaveLength(1);
    // The message is there and readable; only the unsafe characters are gone.
    expect(messages[0].subjects[0]).toContain('exe.txt');
    expect(messages[0].subjects[0]).toContain('login');
    expect(inbox.stdout).not.toMatch(UNSAFE);

    const check = runCli(ada, ['check', '--json']);
    const peer = JSON.parse(check.stdout).agents.find((a: { id: string }) => a.id === 'cy/cache');
    expect(peer.subjects[0]).toContain('login');
    expect(check.stdout).not.toMatch(UNSAFE);
    expect(runCli(ada, ['scan', '--json']).stdout).not.toMatch(UNSAFE);
  });

  it('text output of the same data is clean too', () => {
    for (const args of [['inbox'], ['check'], ['scan']]) {
      const result = runCli(ada, args);
      expect(result.stdout + result.stderr, args.join(' ')).not.toMatch(UNSAFE);
    }
  });

  it('an error line quoting a hostile argument is clean', () => {
    // Also the one run of an unreadable --at: exit 2, one line that names the option.
    const result = runCli(ada, ['scan', '--at', 'nope\u202e\u009b31m']);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('--at');
    expect(result.stderr).toContain('nope');
    expect(result.stderr).not.toMatch(UNSAFE);
  });
});

describe('beacon list --json', () => {
  it('decodes a hostile agent id from a ref name without printing its bidi override', () => {
    const setup = remoteWithClones({ 'README.md': '# x\n' }, 1);
    try {
      const [clone] = setup.clones as [string];
      // Anyone with push access can create this ref: %E2%80%AE is U+202E once decoded.
      gitIn(clone, 'push', '-q', 'origin', 'HEAD:refs/airspace/beacons/evil%E2%80%AEtxt');
      const result = runCli(clone, ['beacon', 'list', '--json']);
      expect(result.status).toBe(0);
      const listed = JSON.parse(result.stdout);
      expect(listed[0].agent).toBe('evil\\u202etxt');
      expect(result.stdout).not.toMatch(UNSAFE);
    } finally {
      removeDir(setup.root);
    }
  });
});
