import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { gitIn, pathWithCli, remoteWithClones, removeDir, runCli, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * `hooks.pre-commit.publishBeacon: true`: every commit publishes this agent's beacon, so another
 * machine sees the work before anything is pushed. It was accepted by the schema and did nothing.
 */
const setup = remoteWithClones({ 'src/a.ts': 'export const a = 1;\n' }, 2);
const [ada, bo] = setup.clones as [string, string];
afterAll(() => removeDir(setup.root));

const beaconAgents = (cwd: string): string[] => {
  const listed = runCli(cwd, ['beacon', 'list', '--json']);
  expect(listed.status, listed.stderr).toBe(0);
  return (JSON.parse(listed.stdout) as { agent: string }[]).map((beacon) => beacon.agent);
};

describe('hooks.pre-commit.publishBeacon', () => {
  it('off (the default): a commit publishes nothing; on: the commit publishes the beacon the other clone lists', () => {
    const PATH = pathWithCli();
    expect(runCli(ada, ['install', '--force'], { PATH }).status).toBe(0);
    gitIn(ada, 'switch', '-q', '-c', 'ada/work');
    writeFiles(ada, { 'src/a.ts': 'export const a = 2;\n' });
    const commit = (message: string) => {
      const result = spawnSync('git', ['commit', '-qam', message], { cwd: ada, env: testEnv({ PATH }), encoding: 'utf8', timeout: 120_000 });
      expect(result.status, result.stderr).toBe(0);
    };
    commit('ada: a = 2');
    expect(beaconAgents(bo)).toEqual([]);

    writeFiles(ada, { '.airspacerc.json': JSON.stringify({ hooks: { 'pre-commit': { publishBeacon: true } } }), 'src/a.ts': 'export const a = 3;\n' });
    gitIn(ada, 'add', '.airspacerc.json');
    commit('ada: a = 3');
    expect(beaconAgents(bo)).toEqual(['ada/work']);
  });
});
