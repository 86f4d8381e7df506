import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { envKeyText, posixCksum, readyFileText, servedLines, shellIndexKey } from '../../src/resident/ready-file.js';

/**
 * The ready file's keys must be what the shell computes (bin/airspace-hooks-ready): checked here
 * against the real `cksum` and the real `env | grep | sort` pipeline of this machine's sh.
 */
function shell(script: string, input: string | Buffer, env: NodeJS.ProcessEnv = {}): string {
  const run = spawnSync('sh', ['-c', script], { input, env, encoding: 'utf8' });
  expect(run.status).toBe(0);
  return run.stdout.replace(/\n$/, '');
}

describe('posixCksum', () => {
  it.each([
    ['nothing', Buffer.alloc(0)],
    ['a line', Buffer.from('PATH=/usr/bin\n')],
    ['256 bytes and more (a length of two bytes)', Buffer.from('x'.repeat(300))],
    ['bytes of every value', Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256))],
  ])('is what cksum prints for %s', (_name, bytes) => {
    expect(posixCksum(bytes)).toBe(shell('cksum', bytes));
  });
});

describe('envKeyText', () => {
  it("is what the shell's env | awk | sort gives, for awkward values too", () => {
    const env = {
      PATH: '/usr/bin:/bin',
      HOME: '/home/ü ser',
      GIT_DIR: '/repo/.git/worktrees/a b',
      GIT_AUTHOR_NAME: 'left out',
      GIT_INDEX_FILE: '.git/index',
      AIRSPACE_HOOKS_BUDGET_MS: '900',
      AIRSPACE_RESIDENT: 'on',
      NO_COLOR: '1',
      TERM: 'xterm',
      UNRELATED: 'left out',
      // A value with a newline is two lines to grep: the second one is kept when it looks kept.
      MULTI: 'first\nPATH=/tricky',
      Z_LAST: 'zz',
    };
    // The pipeline of bin/airspace-hooks-ready.
    const script = `env | LC_ALL=C awk '/^(GIT_[A-Za-z0-9_]*|AIRSPACE_[A-Za-z0-9_]*|HOME|XDG_CONFIG_HOME|TZ|PATH|NO_COLOR|FORCE_COLOR|TERM)=/ &&
      !/^(GIT_INDEX_FILE|GIT_PREFIX|GIT_EDITOR|GIT_REFLOG_ACTION|GIT_AUTHOR_[A-Za-z0-9_]*|GIT_COMMITTER_[A-Za-z0-9_]*|AIRSPACE_HOOKS_BUDGET_MS)=/' |
      LC_ALL=C sort | cksum`;
    // The shell's own environment adds PWD, SHLVL and `_`, none of them kept.
    expect(posixCksum(envKeyText(env))).toBe(shell(script, '', env));
    expect(envKeyText(env).toString('utf8')).toContain('PATH=/tricky\n');
    expect(envKeyText(env).toString('utf8')).not.toContain('GIT_AUTHOR_NAME');
  });

  it('changes with any variable the run reads, not with the commit identity', () => {
    const base = { PATH: '/usr/bin', HOME: '/h' };
    expect(posixCksum(envKeyText({ ...base, GIT_COMMITTER_DATE: 'now' }))).toBe(posixCksum(envKeyText(base)));
    expect(posixCksum(envKeyText({ ...base, AIRSPACE_HOOKS: '0' }))).not.toBe(posixCksum(envKeyText(base)));
    expect(posixCksum(envKeyText({ ...base, PATH: '/other' }))).not.toBe(posixCksum(envKeyText(base)));
  });
});

describe('shellIndexKey', () => {
  it("is the index proof's size and last bytes as wc and od print them, and nothing without a proof", () => {
    const hex = 'ab'.repeat(32);
    expect(shellIndexKey(`index:4096:${hex}`)).toBe(`4096 ${hex}`);
    expect(shellIndexKey('listing:0123')).toBeNull();
    expect(shellIndexKey(null)).toBeNull();
  });
});

describe('readyFileText', () => {
  const header = { id: '0123456789abcdef', pid: 42, until: 1_800_000_000, head: 'a'.repeat(40), index: '10 ff', env: '1 2', tty: '01' };

  it('writes the header a field a line, then text, newlines and ages as records', () => {
    const text = readyFileText(header, [{ text: 'RA  peer\n  traffic as of ' }, { since: 1_799_999_000_000 }, { text: ' ago\n' }]);
    expect(text).toBe(
      [
        'airspace-ready 1',
        header.id,
        '42',
        '1800000000',
        header.head,
        '10 ff',
        '1 2',
        '01',
        'LRA  peer',
        'N',
        'L  traffic as of ',
        'A1799999000000',
        'L ago',
        'N',
        'E',
        '',
      ].join('\n'),
    );
  });

  it('refuses what the shell could not read back', () => {
    expect(readyFileText({ ...header, head: 'a\nb' }, [])).toBeNull();
    expect(readyFileText(header, [{ since: Number.NaN }])).toBeNull();
    expect(readyFileText(header, [{ text: 'x'.repeat(20_000) }])).toBeNull();
  });
});

describe('servedLines', () => {
  it('reads `<ms> <id>` lines and skips anything else', () => {
    expect(servedLines('1800000000123 0123456789abcdef\ngarbage\n1800000001000 0123456789ABCDEF\n0800000001000 0123456789abcdef\n')).toEqual([
      { at: 1_800_000_000_123, id: '0123456789abcdef' },
    ]);
  });
});
