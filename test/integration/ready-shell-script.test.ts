import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexChecksum } from '../../src/git/index-fingerprint.js';
import { formatAge } from '../../src/messages/hooks-and-check.js';
import { envKeyText, posixCksum, readyFileText, shellIndexKey, type ReadyHeader, type ReadyPart } from '../../src/resident/ready-file.js';
import { gitIn, initRepo, READY_BIN, removeDir, tempDir } from '../helpers/temp-repo.js';

/**
 * bin/airspace-hooks-ready on its own, against files written by src/resident/ready-file.ts in a
 * real repository: what it serves, and that a file it cannot trust whole serves nothing (exit 1:
 * the hook asks the CLI).
 */
const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) removeDir(dir);
});

// A value with a newline too: `env` prints it as two lines, and the key takes them as such.
const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent', NO_COLOR: '1', GIT_TRACE_X: 'a\nPATH=/tricky', LONG: 'x'.repeat(5_000) };

function repo() {
  const root = tempDir('airspace-ready-script-');
  cleanup.push(root);
  const cwd = initRepo({ 'a.ts': 'export const a = 1;\n' }, join(root, 'r'));
  const gitDir = gitIn(cwd, 'rev-parse', '--absolute-git-dir');
  const header: ReadyHeader = {
    id: '0123456789abcdef',
    pid: process.pid,
    until: Math.floor(Date.now() / 1000) + 60,
    head: gitIn(cwd, 'rev-parse', 'HEAD'),
    index: shellIndexKey(indexChecksum(join(gitDir, 'index')))!,
    env: posixCksum(envKeyText(ENV)),
    tty: '00',
  };
  const write = (text: string) => writeFileSync(join(gitDir, 'airspace-ready'), text);
  const serve = () => spawnSync(READY_BIN, ['pre-commit'], { cwd, env: ENV, encoding: 'utf8' });
  return { gitDir, header, write, serve };
}

describe('bin/airspace-hooks-ready', () => {
  it('prints the answer with its ages computed now, and logs the commit it answered', () => {
    const { gitDir, header, write, serve } = repo();
    const since = Date.now() - 190_000;
    const parts: ReadyPart[] = [{ text: 'RA  peer\n  traffic as of ' }, { since }, { text: ' ago\n' }];
    write(readyFileText(header, parts)!);
    const served = serve();
    expect(served.status).toBe(0);
    expect(served.stderr).toBe(`RA  peer\n  traffic as of ${formatAge(Date.now() - since)} ago\n`);
    expect(readFileSync(join(gitDir, 'airspace-served'), 'utf8')).toMatch(/^\d{13} 0123456789abcdef\n$/);
  });

  it.each([
    ['a file cut short (no end record)', (text: string) => text.replace(/E\n$/, '')],
    ['a file cut inside a record', (text: string) => text.slice(0, text.indexOf('LRA') + 4)],
    ['a record it does not know', (text: string) => text.replace('\nN\n', '\nX\n')],
    ['pid 0', (text: string) => text.replace(`\n${process.pid}\n`, '\n0\n')],
    ['a number with a leading zero', (text: string) => text.replace(/\nA(\d+)\n/, '\nA0$1\n')],
    ['a window that has ended', (text: string) => text.replace(/\n(\d{10})\n/, `\n${Math.floor(Date.now() / 1000) - 1}\n`)],
    ['another HEAD', (text: string) => text.replace(/\n[0-9a-f]{40}\n/, `\n${'0'.repeat(40)}\n`)],
    ['another environment', (text: string) => text.replace(/\n(\d+ \d+)\n00\n/, '\n1 1\n00\n')],
    ['another terminal', (text: string) => text.replace(/\n00\n/, '\n01\n')],
    ['more than 16 KiB', (text: string) => `${text.replace(/E\n$/, '')}L${'x'.repeat(17_000)}\nE\n`],
  ])('serves nothing of %s', (_name, spoil) => {
    const { gitDir, header, write, serve } = repo();
    const text = readyFileText(header, [{ text: 'RA  peer\n  as of ' }, { since: Date.now() - 5_000 }, { text: '\n' }])!;
    write(text);
    expect(serve().status).toBe(0);
    write(spoil(text));
    const served = serve();
    expect(served.status).toBe(1);
    expect(served.stderr).toBe('');
    expect(readFileSync(join(gitDir, 'airspace-served'), 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('serves nothing once the index moved', () => {
    const { gitDir, header, write, serve } = repo();
    write(readyFileText(header, [{ text: 'all clear\n' }])!);
    expect(serve().stderr).toBe('all clear\n');
    appendFileSync(join(gitDir, '..', 'a.ts'), 'export const b = 2;\n');
    gitIn(join(gitDir, '..'), 'add', 'a.ts');
    expect(serve().status).toBe(1);
  });
});
