import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, gitIn, remoteWithClones, removeDir, runCli, testEnv, writeFiles } from '../helpers/temp-repo.js';
import { gone, isAlive } from '../helpers/processes.js';

/**
 * The resident keeps a live beacon in step with the work (src/app/resident-beacons.ts): alice
 * publishes once, then only edits and discards; her clone's resident republishes and withdraws
 * her beacon on the shared remote, and bob's clone sees it — nobody commits or publishes again.
 * An agent that never published (alice's second worktree) gets no beacon. Waits are bounded
 * polls on the remote's refs, never timed assertions.
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const ON = { AIRSPACE_RESIDENT: 'on' };

let root: string;
let remote: string;
let alice: string;
let bob: string;
let other: string;
let resident = 0;

beforeAll(() => {
  const setup = remoteWithClones({ 'src/session.ts': numbered(100), 'src/billing.ts': numbered(50), 'README.md': '# x\n' }, 2);
  ({ root, remote } = setup);
  [alice, bob] = setup.clones as [string, string];
  gitIn(alice, 'switch', '-q', '-c', 'alice/work');
  gitIn(bob, 'switch', '-q', '-c', 'bob/work');
  other = join(root, 'alice-other');
  gitIn(alice, 'worktree', 'add', '-q', '-b', 'alice/other', other);
});

afterAll(async () => {
  if (resident !== 0 && isAlive(resident)) {
    runCli(alice, ['resident', 'stop'], ON);
    if (!(await gone(resident))) process.kill(resident, 'SIGKILL');
  }
  removeDir(root);
});

/** The remote's beacon refs (legacy and area refs) of `agent`, as `<sha> <ref>` lines. */
function remoteBeacons(agent: string): string[] {
  const encoded = agent.replaceAll('/', '%2F');
  return gitIn(remote, 'for-each-ref', '--format=%(objectname) %(refname)', 'refs/airspace/')
    .split('\n')
    .filter((line) => line.endsWith(`/${encoded}`) || line.endsWith(`/${agent}`));
}

async function poll(done: () => boolean, what: string, maxMs = 20_000): Promise<void> {
  for (let waited = 0; waited < maxMs; waited += 250) {
    if (done()) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`not within ${maxMs} ms: ${what}\n${residentLog()}`);
}

const logFile = () => join(root, 'resident.log');

function residentLog(): string {
  return existsSync(logFile()) ? readFileSync(logFile(), 'utf8') : '(no resident log)';
}

function listedBy(cwd: string): { agent: string | null; files: string[] }[] {
  const listed = runCli(cwd, ['beacon', 'list', '--json']);
  expect(listed.status, listed.stderr).toBe(0);
  return JSON.parse(listed.stdout);
}

describe('the resident refreshes and withdraws live beacons', () => {
  it('republishes an edited, uncommitted change; a second clone sees the new file', async () => {
    writeFiles(alice, { 'src/session.ts': numbered(100).replace('line 40\n', 'line 40 alice\n') });
    const published = runCli(alice, ['beacon', 'publish']);
    expect(published.status, published.stderr).toBe(0);
    const before = remoteBeacons('alice/work');
    expect(before.length).toBeGreaterThan(0);

    // Started as the hooks start it (src/resident/start-resident.ts): detached, its log on stderr.
    const fd = openSync(logFile(), 'a');
    const child = spawn(process.execPath, [BIN, 'resident', 'serve'], { cwd: alice, env: testEnv(ON), stdio: ['ignore', 'ignore', fd], detached: true });
    closeSync(fd);
    child.unref();
    resident = child.pid!;
    await poll(() => /watching \d+ worktrees/.test(residentLog()), 'the resident watches');

    writeFiles(alice, { 'src/billing.ts': numbered(50).replace('line 7\n', 'line 7 alice\n') });
    await poll(() => {
      const now = remoteBeacons('alice/work');
      return now.length > 0 && now.join('\n') !== before.join('\n');
    }, "alice's beacon republished");
    const alices = listedBy(bob).find((b) => b.agent === 'alice/work');
    expect(alices?.files.sort()).toEqual(['src/billing.ts', 'src/session.ts']);
    // bob's check, on the same file as alice's uncommitted edit, meets her through the beacon.
    writeFiles(bob, { 'src/billing.ts': numbered(50).replace('line 9\n', 'line 9 bob\n') });
    const seen = JSON.parse(runCli(bob, ['check', '--fetch', '--json']).stdout);
    const link = seen.links.find((l: { a: string; b: string }) => [l.a, l.b].includes('alice/work'));
    expect(link?.sharedFiles.map((f: { path: string }) => f.path)).toEqual(['src/billing.ts']);
  });

  it('republishes at most once per resident.beaconRefreshMinutes: a second edit waits for the interval', async () => {
    const before = remoteBeacons('alice/work');
    writeFiles(alice, { 'src/billing.ts': numbered(50).replace('line 7\n', 'line 7 alice, again\n') });
    await poll(() => /beacon of alice\/work: republished in \d+ s/.test(residentLog()), 'the second refresh deferred');
    expect(remoteBeacons('alice/work')).toEqual(before);
  });

  it('publishes nothing for an agent that never published', async () => {
    writeFiles(other, { 'src/session.ts': numbered(100).replace('line 90\n', 'line 90 other\n') });
    const reScored = (log: string) => log.split('\n').filter((line) => line.includes(`re-scored ${other}`)).length;
    const already = reScored(residentLog());
    await poll(() => reScored(residentLog()) > already, 'the second worktree re-scored');
    expect(remoteBeacons('alice/other')).toEqual([]);
    writeFiles(other, { 'src/session.ts': numbered(100) });
  });

  it('withdraws the beacon of a branch deleted after its worktree switched away (no hook runs for either)', async () => {
    writeFiles(other, { 'src/session.ts': numbered(100).replace('line 80\n', 'line 80 other\n') });
    const published = runCli(other, ['beacon', 'publish']);
    expect(published.status, published.stderr).toBe(0);
    expect(remoteBeacons('alice/other').length).toBeGreaterThan(0);
    const switched = (log: string) => log.split('\n').filter((line) => line.includes(`re-scored ${other}`)).length;
    const already = switched(residentLog());
    gitIn(other, 'switch', '-q', '-c', 'alice/next');
    await poll(() => switched(residentLog()) > already, 'the switch re-scored');
    // The branch still exists (its work could come back): its beacon stays.
    expect(remoteBeacons('alice/other').length).toBeGreaterThan(0);
    gitIn(other, 'branch', '-q', '-D', 'alice/other');
    await poll(() => remoteBeacons('alice/other').length === 0, "alice/other's beacon withdrawn");
    expect(remoteBeacons('alice/next')).toEqual([]);
    gitIn(other, 'checkout', '-q', '--', '.');
  });

  it('withdraws the beacon when the work is discarded', async () => {
    gitIn(alice, 'checkout', '--', '.');
    await poll(() => remoteBeacons('alice/work').length === 0, "alice's beacon withdrawn");
    expect(listedBy(bob).map((b) => b.agent)).not.toContain('alice/work');
  });
});
