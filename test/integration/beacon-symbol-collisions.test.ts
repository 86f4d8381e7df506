import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withRunSignal } from '../../src/git/run-scope.js';
import { symbolMessages } from '../../src/messages/channels.js';
import { mergeChannels } from '../../src/channels/merge-channel.js';
import { symbolChannels } from '../../src/channels/symbol-channels.js';
import type { ChannelledPair } from '../../src/channels/types.js';
import { cloneTemplate } from '../helpers/copied-clones.js';
import { commitAll, gitIn, pathWithCli, runCli, testEnv, writeFiles } from '../helpers/temp-repo.js';
import { SESSION, SESSION_WITHOUT_CREATE } from '../helpers/session-module.js';
import type { ReportLink } from '../../src/report/check-report.js';

/**
 * The symbol channel on peers known through their beacons (issue 10 point 4): two clones and a
 * bare remote. ada changes `src/auth/session.ts` in UNCOMMITTED work and only publishes a beacon
 * (its parent commit carries that work); bo's new code calls what ada changed. Git merges both
 * cleanly (different files), so the only thing that can see the collision is the symbol channel
 * computed on the beacon's work.
 */
const FILES = {
  'src/auth/session.ts': SESSION,
  'src/auth/index.ts': "export * from './session';\n",
  'src/app.ts': "import { createSession } from './auth';\nexport const s = createSession('root');\n",
};
const ADMIN = [
  "import { createSession, formatUser } from '../auth';", // 1
  '',
  "export const admin = createSession('admin');", // 3
  "export const name = formatUser('admin');", // 4
  '',
].join('\n');
const REMOVED = SESSION_WITHOUT_CREATE;
const RESIGNED = SESSION.replace('formatUser(user: string)', 'formatUser(user: string, width: number)');

const PATH = pathWithCli();
// One remote with two clones (their import graph already built) made once; each test works in its own copy.
let template: ReturnType<typeof cloneTemplate>;
beforeAll(() => {
  template = cloneTemplate(FILES, 2, { graph: true });
});
afterAll(() => template?.dispose());

function clones(): [string, string] {
  return template.copy().clones as [string, string];
}

function linkWith(cwd: string, peer: string): ReportLink {
  const result = runCli(cwd, ['check', '--fetch', '--json']);
  const report = JSON.parse(result.stdout) as { links: ReportLink[]; agents: { id: string }[] };
  const link = report.links.find((l) => l.a === peer || l.b === peer);
  expect(link, result.stdout.slice(0, 3000)).toBeDefined();
  return link!;
}

function publish(cwd: string): void {
  const published = runCli(cwd, ['beacon', 'publish']);
  expect(published.status, published.stderr).toBe(0);
}

const REMOVED_EVIDENCE = "ada/work removed `createSession` (src/auth/session.ts:1); bo/work's new code in src/api/admin.ts:3 calls it with 1 argument";

describe('the symbol channel on beacon peers', () => {
  // Three peers known through their beacons, published from one clone on three branches, and bo's
  // new code that calls what they changed. One `check` on bo scores the three pairs; each pair is
  // scored on its own (a link is one pair), so each test below reads its own link from that report.
  // Before, each peer had its own copy of the fixture and its own check on bo: two more CLI runs.
  let bo: string;
  let report: { links: ReportLink[] };
  let stdout: string;
  let remoteBranches: string;
  beforeAll(() => {
    let peers: string;
    [peers, bo] = clones();
    // ada: nothing committed, nothing pushed; the removal travels only in the beacon's parent.
    gitIn(peers, 'switch', '-q', '-c', 'ada/work');
    writeFiles(peers, { 'src/auth/session.ts': REMOVED });
    publish(peers);
    // cy: a required parameter added to formatUser, also only in uncommitted work.
    gitIn(peers, 'switch', '-q', '-c', 'cy/work');
    writeFiles(peers, { 'src/auth/session.ts': RESIGNED });
    publish(peers);
    // dee: publishes the removal, then restores createSession, commits and pushes: the beacon's
    // removal is history, the pushed branch is the newer state.
    gitIn(peers, 'switch', '-q', '-c', 'dee/work');
    writeFiles(peers, { 'src/auth/session.ts': REMOVED });
    publish(peers);
    writeFiles(peers, { 'src/auth/session.ts': SESSION.replace('return user.trim();', 'return user.trim() || user;') });
    commitAll(peers, 'dee: keep createSession after all');
    gitIn(peers, 'push', '-q', '-u', 'origin', 'HEAD');
    // Ref names only: a commit id is hex and can itself contain "ada" (seen in a full run).
    remoteBranches = gitIn(peers, 'ls-remote', 'origin', 'refs/heads/*');

    gitIn(bo, 'switch', '-q', '-c', 'bo/work');
    writeFiles(bo, { 'src/api/admin.ts': ADMIN });
    const result = runCli(bo, ['check', '--fetch', '--json']);
    stdout = result.stdout;
    report = JSON.parse(stdout) as { links: ReportLink[] };
  });

  const linkFor = (peer: string): ReportLink => {
    const link = report.links.find((l) => l.a === peer || l.b === peer);
    expect(link, stdout.slice(0, 3000)).toBeDefined();
    return link!;
  };

  it('a beacon-only peer that removed an export in uncommitted work: RA with evidence on check and on pre-push', () => {
    expect(remoteBranches).not.toContain('refs/heads/ada/');
    const link = linkFor('ada/work');
    expect(link.channels.symbol).toBe(1);
    expect(link.level).toBe('RA');
    expect(link.evidence).toContainEqual({ channel: 'symbol', text: REMOVED_EVIDENCE });
    expect(link.symbols).toEqual([
      {
        symbol: 'createSession',
        change: 'removed',
        details: [],
        changedBy: 'ada/work',
        usedBy: 'bo/work',
        declaration: { file: 'src/auth/session.ts', line: 1 },
        use: { file: 'src/api/admin.ts', line: 3 },
        args: 1,
      },
    ]);

    // Committed and pushed with the hooks installed: the pre-push shows the same RA and evidence.
    // bo's push carries a commit and ada has only uncommitted work, so bo has right of way (issue 23,
    // item 4: committed work outranks uncommitted work, not the order of the names) and holds.
    expect(runCli(bo, ['install', '--force'], { PATH }).status).toBe(0);
    commitAll(bo, 'bo: admin calls createSession');
    const pushed = spawnSync('git', ['push', '-u', 'origin', 'bo/work'], { cwd: bo, env: testEnv({ PATH }), encoding: 'utf8', timeout: 120_000 });
    expect(pushed.stderr).toContain('RA  ada/work');
    expect(pushed.stderr).toContain(REMOVED_EVIDENCE);
    expect(pushed.stderr).toContain('hold:');
    expect(pushed.status, pushed.stderr).toBe(0);
  });

  it('a beacon-only peer that added a required parameter: TA, no evidence', () => {
    expect(remoteBranches).not.toContain('refs/heads/cy/');
    const link = linkFor('cy/work');
    expect(link.channels.symbol).toBe(0.7);
    expect(link.level).toBe('TA');
    expect(link.evidence ?? []).toEqual([]);
    expect(link.symbols).toEqual([
      expect.objectContaining({
        symbol: 'formatUser',
        change: 'signature',
        details: ['1 → 2 required parameters'],
        changedBy: 'cy/work',
        declaration: { file: 'src/auth/session.ts', line: 5 },
        use: { file: 'src/api/admin.ts', line: 4 },
        args: 1,
      }),
    ]);
  });

  it('a branch pushed after the beacon is the newer state: its own symbol channel stands', () => {
    expect(remoteBranches).toContain('refs/heads/dee/work');
    const link = linkFor('dee/work');
    expect(link.channels.symbol).toBe(0);
    expect(link.level).toBe('clear');
  });

  it('a peer whose beacon is newer than its pushed branch: the symbol channel reads the beacon, on both machines', () => {
    const [ada, bo] = clones();
    // ada pushes a harmless commit, then removes createSession without committing.
    gitIn(ada, 'switch', '-q', '-c', 'ada/work');
    writeFiles(ada, { 'src/app.ts': "export const s = 'root';\n" });
    commitAll(ada, 'ada: app no longer needs a session');
    gitIn(ada, 'push', '-q', '-u', 'origin', 'HEAD');
    writeFiles(ada, { 'src/auth/session.ts': REMOVED });
    publish(ada);

    gitIn(bo, 'switch', '-q', '-c', 'bo/work');
    writeFiles(bo, { 'src/api/admin.ts': ADMIN });
    commitAll(bo, 'bo: admin calls createSession');
    gitIn(bo, 'push', '-q', '-u', 'origin', 'HEAD');
    publish(bo);

    const onBo = linkWith(bo, 'ada/work');
    expect(onBo.channels.symbol).toBe(1);
    expect(onBo.level).toBe('RA');
    expect(onBo.evidence).toContainEqual({
      channel: 'symbol',
      text: "ada/work removed `createSession` (src/auth/session.ts:1); bo/work's new code in src/api/admin.ts:3 calls it with 1 argument",
    });
    // ada's machine compares its own current work with bo's: the same collision from the other side.
    const onAda = linkWith(ada, 'bo/work');
    expect(onAda.channels.symbol).toBe(1);
    expect(onAda.level).toBe('RA');
  });
});

describe("the symbol channel's share of the budget on the beacon path", () => {
  it('when only its share is spent, the symbol channel is unknown and the merge channel stands; when the run is cut, the run ends', async () => {
    const [ada] = clones();
    const base = gitIn(ada, 'rev-parse', 'HEAD');
    gitIn(ada, 'switch', '-q', '-c', 'ada/work');
    writeFiles(ada, { 'src/auth/session.ts': REMOVED });
    const work = commitAll(ada, 'ada: drop createSession');
    gitIn(ada, 'switch', '-q', '-c', 'bo/work', base);
    writeFiles(ada, { 'src/api/admin.ts': ADMIN });
    const own = commitAll(ada, 'bo: admin');
    const symbol = (signal?: AbortSignal) => ({ ownId: 'bo/work', ignore: () => false, ...(signal ? { signal } : {}) });
    // The pair of our work and a peer's published work (a beacon commit's parent), through src/channels/ as a run computes it.
    const beaconWorkChannels = async (
      cwd: string,
      own: string,
      _beacon: unknown,
      work: string,
      _tip: undefined,
      options: { merge: boolean; symbol: ReturnType<typeof symbol> },
    ) => {
      const empty = { base: null, files: [] };
      const pair: ChannelledPair = {
        a: 'bo/work',
        b: 'ada/work',
        base: '',
        workingSetA: empty,
        workingSetB: empty,
        states: { a: own, b: work, fromBase: false },
      };
      const context = { cwd, ignore: options.symbol.ignore, concurrency: 1 };
      const merged = options.merge ? await mergeChannels([pair], context) : [pair];
      const [found] = (await symbolChannels(merged, () => true, { ...context, ...(options.symbol.signal ? { signal: options.symbol.signal } : {}) })).pairs;
      return found;
    };
    const beacon = 'ada/work';

    const full = await beaconWorkChannels(ada, own, beacon, work, undefined, { merge: true, symbol: symbol() });
    expect(full?.symbol?.value).toBe(1);
    expect(full?.merge?.value).toBe(0);

    const spent = await beaconWorkChannels(ada, own, beacon, work, undefined, { merge: true, symbol: symbol(AbortSignal.abort()) });
    expect(spent?.symbol).toEqual({ value: null, collisions: [], reason: symbolMessages.cut });
    expect(spent?.merge?.value).toBe(0);

    const run = AbortSignal.abort();
    await expect(withRunSignal(run, () => beaconWorkChannels(ada, own, beacon, work, undefined, { merge: false, symbol: symbol(run) }))).rejects.toThrow();
  });
});
