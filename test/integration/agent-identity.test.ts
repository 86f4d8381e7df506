import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneTemplate } from '../helpers/copied-clones.js';
import { commitAll, gitIn, pathWithCli, runCli, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * Every agent is somebody (issue 23): three clones of one bare remote are three machines. Each
 * scene is judged from every machine's own view (`check --fetch --json` there): in a colliding pair
 * exactly one agent steers, a dead line of work blocks nobody, and right of way follows facts both
 * machines can verify — not the order of the names.
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const FILE = 'docs/session.txt';
const edit = (tag: string) => ({ [FILE]: numbered(60).replace('line 20\n', `line 20 ${tag}\n`) });
const PATH = pathWithCli();

interface Link {
  a: string;
  b: string;
  level: string;
  steer?: string;
  hold?: string;
  holdReason?: string;
}
interface Report {
  agents: { id: string; kind: string; machine?: string; beaconAgeMs?: number; branchGone?: boolean }[];
  links: Link[];
  verdict: { steerFrom: string[]; holdAgainst: string[]; staleFrom?: string[]; block: boolean };
  scanned: { ownship: string };
}

let template: ReturnType<typeof cloneTemplate>;
beforeAll(() => {
  template = cloneTemplate({ [FILE]: numbered(60) }, 3);
});
afterAll(() => template?.dispose());

function machines() {
  const { clones, remote } = template.copy();
  const [ada, bo, cy] = clones as [string, string, string];
  return { ada, bo, cy, remote };
}

function check(clone: string): { report: Report; status: number | null } {
  const run = runCli(clone, ['check', '--fetch', '--json']);
  expect(run.stderr).not.toMatch(/bug|internal error/i);
  return { report: JSON.parse(run.stdout) as Report, status: run.status };
}

const beaconRefs = (remote: string) => gitIn(remote, 'for-each-ref', '--format=%(refname)', 'refs/airspace/beacons/').split('\n').filter(Boolean);
const raWith = (report: Report) => report.links.filter((l) => l.level === 'RA');

describe('two machines on one branch name', () => {
  it('are two agents with two beacons, and of the pair exactly one steers on both machines', () => {
    const { ada, bo, cy, remote } = machines();
    for (const [clone, tag] of [
      [ada, 'ada'],
      [bo, 'bo'],
    ] as const) {
      gitIn(clone, 'switch', '-q', '-c', 'feature');
      writeFiles(clone, edit(tag));
      expect(runCli(clone, ['beacon', 'publish']).status).toBe(0);
    }
    // Before: one ref refs/airspace/beacons/feature, the second publish overwrote the first.
    const refs = beaconRefs(remote);
    expect(refs).toHaveLength(2);
    expect(refs.every((ref) => /^refs\/airspace\/beacons\/[0-9a-f]{10}\/feature$/.test(ref))).toBe(true);

    // A third machine sees both agents, under two ids; `beacon list` says whose each is.
    const onCy = check(cy).report.agents.filter((agent) => agent.kind === 'beacon');
    expect(onCy).toHaveLength(2);
    expect(new Set(onCy.map((agent) => agent.id)).size).toBe(2);
    const listed = runCli(cy, ['beacon', 'list']).stdout.trim().split('\n');
    expect(listed).toHaveLength(2);
    for (const line of listed) expect(line).toMatch(/^feature {2}[0-9a-f]{12} {2}· {2}from \S+ {2}· {2}\d+s old {2}· {2}1 file: docs\/session\.txt$/);
    expect(runCli(ada, ['beacon', 'list']).stdout).toContain('from this clone');

    // Each machine: its own `feature` is the ownship, the other machine's `feature` a peer of its own.
    const onAda = check(ada).report;
    const onBo = check(bo).report;
    expect(onAda.scanned.ownship).toBe('feature');
    expect(onBo.scanned.ownship).toBe('feature');
    const [adaLink] = raWith(onAda);
    const [boLink] = raWith(onBo);
    expect(adaLink, JSON.stringify(onAda.links)).toBeDefined();
    expect(boLink, JSON.stringify(onBo.links)).toBeDefined();
    const peerOnAda = adaLink!.a === 'feature' ? adaLink!.b : adaLink!.a;
    expect(peerOnAda).toMatch(/^feature@.+\.[0-9a-f]{4}$/);
    // Exactly one steers: ada steers on its machine iff bo holds on its own.
    const adaSteers = onAda.verdict.steerFrom.length === 1;
    const boSteers = onBo.verdict.steerFrom.length === 1;
    expect(adaSteers).not.toBe(boSteers);
    expect(onAda.verdict.holdAgainst.length === 1).toBe(boSteers);
  });
});

describe('a dead line of work blocks nobody', () => {
  // ada (`aaa`) has right of way over bo (`bo/work`) on names alone: both have only uncommitted work.
  function collision() {
    const m = machines();
    gitIn(m.ada, 'switch', '-q', '-c', 'aaa');
    writeFiles(m.ada, edit('ada'));
    expect(runCli(m.ada, ['beacon', 'publish']).status).toBe(0);
    gitIn(m.bo, 'switch', '-q', '-c', 'bo/work');
    writeFiles(m.bo, edit('bo'));
    const before = check(m.bo);
    expect(before.report.verdict.steerFrom, JSON.stringify(before.report.links)).toHaveLength(1);
    expect(before.status).toBe(1);
    return m;
  }

  it('a network command refreshes a live beacon: check --fetch republishes it with the current work', () => {
    const { ada, remote } = machines();
    gitIn(ada, 'switch', '-q', '-c', 'aaa');
    writeFiles(ada, edit('ada'));
    expect(runCli(ada, ['beacon', 'publish']).status).toBe(0);
    const [published] = beaconRefs(remote);
    const before = gitIn(remote, 'rev-parse', published!);
    writeFiles(ada, { [FILE]: numbered(60).replace('line 40\n', 'line 40 more\n') });
    check(ada);
    const after = gitIn(remote, 'rev-parse', published!);
    expect(after).not.toBe(before);
    expect(gitIn(remote, 'show', `${after}:beacon.json`)).toContain('"ranges":[[40,41]]');
  });

  it('a refresh keeps the note given to beacon publish; a publish without one clears it', () => {
    const { ada, remote } = machines();
    gitIn(ada, 'switch', '-q', '-c', 'aaa');
    writeFiles(ada, edit('ada'));
    expect(runCli(ada, ['beacon', 'publish', '--note', 'moving auth to tokens']).status).toBe(0);
    const [published] = beaconRefs(remote);
    const before = gitIn(remote, 'rev-parse', published!);
    writeFiles(ada, { [FILE]: numbered(60).replace('line 40\n', 'line 40 more\n') });
    check(ada);
    const after = gitIn(remote, 'rev-parse', published!);
    expect(after).not.toBe(before);
    expect(JSON.parse(gitIn(remote, 'show', `${after}:beacon.json`)).note).toBe('moving auth to tokens');
    expect(runCli(ada, ['beacon', 'publish']).status).toBe(0);
    expect(JSON.parse(gitIn(remote, 'show', `${gitIn(remote, 'rev-parse', published!)}:beacon.json`)).note).toBeUndefined();
  });

  it('work discarded: its machine withdraws its beacon on its next network command, and the peer is clear', () => {
    const { ada, bo, remote } = collision();
    gitIn(ada, 'checkout', '--', FILE);
    const own = runCli(ada, ['check', '--fetch']);
    expect(own.status).toBe(0);
    // check says what its run did beside the report, as the hook does.
    expect(own.stderr).toContain('withdrew 1 beacon of this clone for work that no longer exists');
    expect(beaconRefs(remote)).toEqual([]);
    const after = check(bo);
    expect(after.report.verdict.steerFrom).toEqual([]);
    expect(after.status).toBe(0);
  });

  it('a beacon not refreshed within beacons.refreshHours warns with its age and does not block on its own', async () => {
    const { bo } = collision();
    writeFiles(bo, { '.airspacerc.json': JSON.stringify({ beacons: { refreshHours: 0.0001 } }) });
    await new Promise((resolve) => setTimeout(resolve, 800));
    const stale = check(bo);
    expect(stale.report.verdict.steerFrom).toHaveLength(1);
    expect(stale.report.verdict).toMatchObject({ staleFrom: stale.report.verdict.steerFrom, block: false });
    expect(stale.status).toBe(0);
    expect(runCli(bo, ['check']).stdout).toMatch(/stale: not refreshed for \d+s/);
  });

  it('branch deleted: its beacon is withdrawn; the same clone is never blocked by its own beacons', () => {
    const { ada, bo, remote } = collision();
    commitAll(ada, 'ada: keep it');
    expect(runCli(ada, ['beacon', 'publish']).status).toBe(0);
    // The successor branch from the same clone: its own `aaa` beacon is no traffic here.
    gitIn(ada, 'switch', '-q', '-c', 'aaa-v2');
    expect(check(ada).report.links.filter((l) => l.a === 'aaa' || l.b === 'aaa')).toEqual([]);
    gitIn(ada, 'branch', '-q', '-D', 'aaa');
    expect(runCli(ada, ['beacon', 'clear', '--stale']).stdout).toContain('withdrew 1 beacon of this clone');
    expect(beaconRefs(remote).filter((ref) => ref.endsWith('/aaa'))).toEqual([]);
    expect(check(bo).report.verdict.steerFrom).toEqual([]);
  });
});

describe('a branch deleted on the remote while its machine is away', () => {
  it('its beacon still counting pushed commits is shown with the reason and blocks nobody', () => {
    const { ada, bo, remote } = machines();
    gitIn(ada, 'switch', '-q', '-c', 'aaa');
    writeFiles(ada, edit('ada'));
    commitAll(ada, 'ada: pushed work');
    gitIn(ada, 'push', '-q', 'origin', 'aaa');
    expect(runCli(ada, ['beacon', 'publish']).status).toBe(0);
    gitIn(bo, 'switch', '-q', '-c', 'bo/work');
    writeFiles(bo, edit('bo'));
    commitAll(bo, 'bo: same line');
    const before = check(bo);
    expect(before.report.verdict.steerFrom).toEqual(['aaa']);
    expect(before.status).toBe(1);
    // Deleted from another machine (or the web UI): ada's clone runs nothing that could withdraw.
    gitIn(remote, 'update-ref', '-d', 'refs/heads/aaa');
    const after = check(bo);
    // Still the collision it was (bo steers, as on ada's machine), but it blocks nobody on its own.
    expect(after.report.verdict).toMatchObject({ steerFrom: ['aaa'], staleFrom: ['aaa'], block: false });
    expect(after.status).toBe(0);
    expect(after.report.agents.find((a) => a.id === 'aaa')).toMatchObject({ kind: 'beacon', branchGone: true });
    expect(runCli(bo, ['check', '--fetch']).stdout).toContain('the remote has no branch aaa (deleted or merged since)');
  });
});

describe('right of way on facts both machines can verify', () => {
  it('a committed push holds against an uncommitted-only beacon, whatever the names; the steer message says why', () => {
    const { ada, bo } = machines();
    gitIn(ada, 'switch', '-q', '-c', 'aaa');
    writeFiles(ada, edit('ada'));
    expect(runCli(ada, ['beacon', 'publish']).status).toBe(0);

    gitIn(bo, 'switch', '-q', '-c', 'zzz');
    expect(runCli(bo, ['install', '--force'], { PATH }).status).toBe(0);
    writeFiles(bo, edit('bo'));
    commitAll(bo, 'bo: committed edit');
    const pushed = spawnSync('git', ['push', '-u', 'origin', 'zzz'], { cwd: bo, env: testEnv({ PATH }), encoding: 'utf8', timeout: 120_000 });
    expect(pushed.stderr).toContain('RA  aaa');
    expect(pushed.stderr).toContain('hold:');
    expect(pushed.status, pushed.stderr).toBe(0);

    // ada's machine agrees: it steers, and is told why.
    const onAda = runCli(ada, ['check', '--fetch']);
    expect(onAda.status).toBe(1);
    expect(onAda.stdout).toContain('steer: you must steer away from zzz');
    expect(onAda.stdout).toContain('why: it has more commits pushed to the remote');
  });
});

describe('scan lists every pair', () => {
  it('a beacon-only agent and a pushed branch of two other machines are a pair on a third machine', () => {
    const { ada, bo, cy } = machines();
    gitIn(ada, 'switch', '-q', '-c', 'aaa');
    writeFiles(ada, edit('ada'));
    expect(runCli(ada, ['beacon', 'publish']).status).toBe(0);
    gitIn(bo, 'switch', '-q', '-c', 'bo/work');
    writeFiles(bo, edit('bo'));
    commitAll(bo, 'bo: edit');
    gitIn(bo, 'push', '-q', '-u', 'origin', 'bo/work');

    const scan = JSON.parse(runCli(cy, ['scan', '--fetch', '--json']).stdout) as Report;
    const pair = scan.links.find((l) => [l.a, l.b].sort().join(' ') === 'aaa bo/work');
    // Before: only pairs with the ownship had a beacon in them; this one was "-" in the matrix.
    expect(pair, JSON.stringify(scan.links)).toMatchObject({ level: 'RA' });
  });
});
