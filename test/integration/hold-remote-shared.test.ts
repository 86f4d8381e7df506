import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { installedClones } from '../helpers/copied-clones.js';
import { commitAll, gitIn, pathWithCli, removeDir, runCli, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * The holder's line about a peer on another machine says how that peer gets to see our work. It
 * used to say "once you push or run `beacon publish`" on every run, also inside the push that
 * shows it and in a check after our beacon was already on the remote.
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const PATH = pathWithCli();
const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

const holdLine = (text: string) => text.split('\n').find((line) => line.includes('hold: you have right of way')) ?? '';

describe('the holder is told whether the remote peer can see its work already', () => {
  it('inside the push that shows it, and once its beacon is on the remote (not yet: test/unit/report/render-text.test.ts)', () => {
    const fixture = installedClones({ 'src/session.ts': numbered(40) }, 2, PATH);
    roots.push(fixture.root);
    const [ada, bo] = fixture.clones as [string, string];
    const push = (cwd: string, ...args: string[]) => spawnSync('git', ['push', ...args], { cwd, env: testEnv({ PATH }), encoding: 'utf8', timeout: 120_000 });

    // ada pushes first (more pushed work: it holds); bo's colliding push is blocked, its beacon stays.
    gitIn(ada, 'switch', '-q', '-c', 'ada/work');
    writeFiles(ada, { 'src/session.ts': numbered(40).replace(/^(line [1-9])$/gm, '$1 ada') });
    commitAll(ada, 'ada: lines 1-9');
    expect(push(ada, '-u', 'origin', 'ada/work').status).toBe(0);
    gitIn(bo, 'switch', '-q', '-c', 'bo/work');
    writeFiles(bo, { 'src/session.ts': numbered(40).replace(/^(line [1-9])$/gm, '$1 bo') });
    commitAll(bo, 'bo: lines 1-9');
    expect(push(bo, '-u', 'origin', 'bo/work').status).toBe(1);

    // ada's next push: this push is what shows the work.
    writeFiles(ada, {
      'src/session.ts': numbered(40)
        .replace(/^(line [1-9])$/gm, '$1 ada')
        .replace('line 30\n', 'line 30 ada\n'),
    });
    commitAll(ada, 'ada: line 30');
    const pushed = push(ada, 'origin', 'ada/work');
    expect(pushed.status).toBe(0);
    const during = holdLine(pushed.stderr);
    expect(during).toContain('once this push lands');
    expect(during).not.toContain('once you push');

    // After it: ada's beacon is on the remote, the peer sees it on its next fetch.
    const after = holdLine(runCli(ada, ['check', '--fetch'], { PATH }).stdout);
    expect(after).toContain('your beacon is on the remote');
    expect(after).not.toContain('once you push');
  });
});
