import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRemoteWithClones, type RemoteWithClones } from '../helpers/copy-fixture.js';
import { installedClones } from '../helpers/copied-clones.js';
import { commitAll, gitIn, pathWithCli, removeDir, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * Issue 24, item 11: first pushes at the same instant, mutually conflicting, all landed — each hook
 * looked before anyone had announced. Now a pre-push announces (publishes its beacon) before it
 * decides and looks again (src/run/recheck-after-announce.ts): real `git push` processes with the
 * installed hooks, started together against one bare remote, never all land.
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const PATH = pathWithCli();
const AGENTS = ['one', 'two', 'three'] as const;
const roots: string[] = [];
let fixture: RemoteWithClones;

interface Pushed {
  readonly status: number | null;
  readonly stderr: string;
}

function push(cwd: string): Promise<Pushed> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['push', '-u', 'origin', 'HEAD'], { cwd, env: testEnv({ PATH }), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

beforeAll(() => {
  fixture = installedClones({ 'src/session.ts': numbered(80), 'README.md': '# x\n' }, AGENTS.length, PATH);
  roots.push(fixture.root);
  AGENTS.forEach((tag, i) => {
    const clone = fixture.clones[i]!;
    gitIn(clone, 'switch', '-q', '-c', `${tag}/work`);
    // The same two lines, three different ways: every pair conflicts (git merge-tree says so).
    writeFiles(clone, { 'src/session.ts': numbered(80).replace('line 20\n', `line 20 ${tag}\n`).replace('line 21\n', `line 21 ${tag}\n`) });
    commitAll(clone, `${tag}: edit the session lines`);
  });
}, 120_000);

afterAll(() => roots.forEach(removeDir));

function landedBranches(clone: string): string[] {
  return gitIn(clone, 'ls-remote', '--heads', 'origin')
    .split('\n')
    .map((line) => line.split('\t')[1] ?? '')
    .filter((ref) => ref.endsWith('/work'));
}

describe('conflicting pushes started at the same moment', () => {
  for (const round of [1, 2, 3]) {
    it(`two of them: at least one is blocked (round ${round})`, async () => {
      const setup = copyRemoteWithClones(fixture);
      roots.push(setup.root);
      const [one, two] = setup.clones as [string, string];
      const results = await Promise.all([push(one), push(two)]);
      const blocked = results.filter((r) => r.status !== 0);
      expect(blocked.length, results.map((r) => r.stderr).join('\n---\n')).toBeGreaterThanOrEqual(1);
      for (const r of blocked) expect(r.stderr).toContain('steer: you must steer away');
      expect(landedBranches(one).length).toBeLessThanOrEqual(1);
    }, 60_000);
  }

  it('three of them, all conflicting: at most one lands', async () => {
    const setup = copyRemoteWithClones(fixture);
    roots.push(setup.root);
    const results = await Promise.all(setup.clones.map((clone) => push(clone)));
    expect(results.filter((r) => r.status === 0).length, results.map((r) => r.stderr).join('\n---\n')).toBeLessThanOrEqual(1);
    expect(landedBranches(setup.clones[0]!).length).toBeLessThanOrEqual(1);
  }, 60_000);

  it('after a meeting, the next push ranks as usual: exactly one of the two may go', async () => {
    const setup = copyRemoteWithClones(fixture);
    roots.push(setup.root);
    const [one, two] = setup.clones as [string, string];
    await Promise.all([push(one), push(two)]);
    // One after the other now, whatever the meeting's outcome: exactly one of them is on the remote
    // (never both, and never neither: two blocked agents are not blocked again for the same meeting).
    const again = [await push(one), await push(two)];
    expect(landedBranches(one), again.map((r) => r.stderr).join('\n---\n')).toHaveLength(1);
  }, 60_000);
});
