import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { commitAll, gitIn, remoteWithClones, removeDir, runCli, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * An intent declared with a time to live (`intent add --ttl`, what the Claude Code hook does before
 * every edit) travels in the beacon with its expiry, and a peer drops it once it has passed. The
 * beacon used to carry the paths alone: a peer read an intent declared for minutes as live for the
 * beacon's whole life (days), and kept scoring it as a whole-file edit.
 */
const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

const git = (cwd: string, args: string[], input?: string) =>
  execFileSync('git', args, { cwd, env: testEnv(), encoding: 'utf8', ...(input !== undefined ? { input } : {}) }).trim();

interface Report {
  agents: { id: string; intent: string[] }[];
}

describe('intent expiry in the beacon', () => {
  it('is published with the intent, and a peer drops the paths whose expiry has passed', () => {
    const setup = remoteWithClones({ 'src/a.ts': 'a\n', 'src/b.ts': 'b\n', 'src/c.ts': 'c\n' }, 2);
    roots.push(setup.root);
    const [ada, bo] = setup.clones as [string, string];
    gitIn(ada, 'switch', '-q', '-c', 'ada/work');
    writeFiles(ada, { 'src/a.ts': 'a ada\n' });
    commitAll(ada, 'ada: a');
    const before = Date.now();
    expect(runCli(ada, ['intent', 'add', '--ttl', '60', 'src/b.ts']).status).toBe(0);
    expect(runCli(ada, ['intent', 'add', 'src/c.ts']).status).toBe(0);
    expect(runCli(ada, ['beacon', 'publish']).status).toBe(0);

    const ref = git(setup.remote, ['for-each-ref', '--format=%(refname)', 'refs/airspace/beacons/']);
    expect(ref).toMatch(/^refs\/airspace\/beacons\//);
    const beacon = JSON.parse(git(setup.remote, ['show', `${ref}:beacon.json`])) as { intent: string[]; intentExpiresAt?: [string, number][] };
    expect(beacon.intent).toEqual(['src/b.ts', 'src/c.ts']);
    expect(beacon.intentExpiresAt).toHaveLength(1);
    const [path, at] = beacon.intentExpiresAt![0]!;
    expect(path).toBe('src/b.ts');
    expect(at).toBeGreaterThanOrEqual(before + 60 * 60_000);

    // While it lives, the peer sees both paths.
    const live = JSON.parse(runCli(bo, ['check', '--fetch', '--json']).stdout) as Report;
    expect(live.agents.find((a) => a.id === 'ada/work')?.intent).toEqual(['src/b.ts', 'src/c.ts']);

    // The same beacon once src/b.ts's hour has passed (published an hour ago, still within the
    // beacon's own TTL): rewritten on the remote as it would read then.
    const passed = { ...beacon, intentExpiresAt: [['src/b.ts', Date.now() - 1_000]] };
    const blob = git(setup.remote, ['hash-object', '-w', '--stdin'], JSON.stringify(passed));
    const tree = git(setup.remote, ['mktree'], `100644 blob ${blob}\tbeacon.json\n`);
    const parent = git(setup.remote, ['rev-parse', `${ref}^`]);
    git(setup.remote, ['update-ref', ref, git(setup.remote, ['commit-tree', '-p', parent, '-m', 'airspace-hooks beacon', tree])]);

    const later = JSON.parse(runCli(bo, ['check', '--fetch', '--json']).stdout) as Report;
    expect(later.agents.find((a) => a.id === 'ada/work')?.intent).toEqual(['src/c.ts']);
  });
});
