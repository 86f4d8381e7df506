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

/**
 * Beacon-only peers: a beacon's files carry no object ids. Two clones that each ran
 * `airspace-hooks install` in a husky project hold the same uncommitted block in the same hook
 * script; seen only through their beacons, they met as a TA on it. The work commits prove the
 * content the same.
 */
describe('identical edits seen through a beacon', () => {
  const hook = '#!/bin/sh\nnpm test\n';
  const withBlock = `${hook}# >>> block >>>\necho checked\n# <<< block <<<\n`;
  let beaconRoot: string;
  let cy: string;
  let dee: string;
  beforeAll(() => {
    const setup = remoteWithClones({ '.husky/pre-commit': hook, 'src/a.ts': numbered(40) }, 2);
    beaconRoot = setup.root;
    [cy, dee] = setup.clones as [string, string];
    gitIn(cy, 'switch', '-q', '-c', 'cy/work');
    gitIn(dee, 'switch', '-q', '-c', 'dee/work');
  });
  afterAll(() => removeDir(beaconRoot));

  const linkWithCy = (): { level: string } | undefined => {
    const result = runCli(dee, ['check', '--fetch', '--json']);
    expect(result.stderr).toBe('');
    const report = JSON.parse(result.stdout) as { links: { a: string; b: string; level: string }[] };
    return report.links.find((l) => [l.a, l.b].includes('cy/work'));
  };

  it('the same uncommitted content in one file on both sides is clear', () => {
    writeFiles(cy, { '.husky/pre-commit': withBlock });
    writeFiles(dee, { '.husky/pre-commit': withBlock });
    expect(runCli(cy, ['beacon', 'publish']).status).toBe(0);
    expect(linkWithCy()).toBeDefined();
    expect(linkWithCy()?.level).toBe('clear');
  });

  it('one line more on one side is still a warning', () => {
    writeFiles(dee, { '.husky/pre-commit': withBlock.replace('echo checked\n', 'echo checked twice\n') });
    expect(['TA', 'RA']).toContain(linkWithCy()?.level);
  });
});
