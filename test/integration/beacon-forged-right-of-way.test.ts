import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Beacon } from '../../src/beacon/beacon-schema.js';
import { publishBeacon } from '../../src/beacon/publish-beacon.js';
import { cloneTemplate } from '../helpers/copied-clones.js';
import { commitAll, gitIn, runCli, testEnv, writeFiles } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

/**
 * Forged right of way (issue 15, item 3): anyone with push access can write any JSON under any
 * beacon ref. A beacon claiming `committedWork: 10000000` and a start in 2000 was believed and the
 * victim was told to steer. Right of way now comes only from what git shows alike on both
 * machines; a beacon whose claims its own commits cannot show is skipped with the reason.
 */
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

// The victim's pushed commit and mallory's branch are the same in every scene: made once, copied per test.
let template: ReturnType<typeof cloneTemplate>;
beforeAll(() => {
  template = cloneTemplate({ 'docs/session.txt': numbered(60) }, 2, {
    prepare: ([victim, mallory]) => {
      gitIn(victim!, 'switch', '-q', '-c', 'victim/work');
      writeFiles(victim!, { 'docs/session.txt': numbered(60).replace('line 20\n', 'line 20 victim\n') });
      commitAll(victim!, 'victim: edit');
      gitIn(victim!, 'push', '-q', '-u', 'origin', 'HEAD');
      gitIn(mallory!, 'switch', '-q', '-c', 'mallory/work');
    },
  });
});
afterAll(() => template?.dispose());

interface Link {
  a: string;
  b: string;
  level: string;
  steer: string | null;
  hold: string | null;
}

/** A victim with one pushed commit, and mallory with one unpushed commit on the same lines. */
function scene(malloryDate: string) {
  const [victim, mallory] = template.copy().clones as [string, string];
  writeFiles(mallory, { 'docs/session.txt': numbered(60).replace('line 20\n', 'line 20 mallory\n') });
  commitAll(mallory, 'mallory: edit', malloryDate);
  return { victim, mallory };
}

/** Mallory's honest beacon as `beacon publish` makes it, republished with forged claims. */
async function forge(mallory: string, claims: Pick<Beacon, 'committedWork' | 'startedAt'>): Promise<void> {
  const honest = runCli(mallory, ['beacon', 'publish', '--json']);
  expect(honest.status, honest.stderr).toBe(0);
  const beacon = JSON.parse(honest.stdout) as Beacon;
  expect(beacon).toMatchObject({ committedWork: 0, startedAt: null });
  const parent = gitIn(mallory, 'rev-parse', 'HEAD');
  const published = await publishBeacon(mallory, 'origin', { ...beacon, ...claims }, { parent, timeoutMs: 20_000 });
  expect(published.ok, published.detail).toBe(true);
}

const linkWith = (report: { links: Link[] }, id: string) => report.links.find((l) => l.a === id || l.b === id);

describe('a beacon claiming right of way', () => {
  // The forged beacon and a beacon that claims nothing, published from one clone on two branches
  // and read by one check on the victim: each beacon is scored (or skipped) on its own, so each
  // test below reads its own agent from that report. Before, each had its own copy and check.
  let report: { links: Link[]; scanned: { skipped: string[] }; verdict: { steerFrom: string[] } };
  beforeAll(async () => {
    const { victim, mallory } = scene('2026-11-01T10:00:00Z');
    await forge(mallory, { committedWork: 10_000_000, startedAt: Date.UTC(2000, 0, 1) });
    // honest: the same kind of edit on the same lines, from main, published as `beacon publish` makes it.
    gitIn(mallory, 'switch', '-q', '-c', 'honest/work', 'main');
    writeFiles(mallory, { 'docs/session.txt': numbered(60).replace('line 20\n', 'line 20 honest\n') });
    commitAll(mallory, 'honest: edit', '2026-11-01T10:00:00Z');
    expect(runCli(mallory, ['beacon', 'publish']).status).toBe(0);
    report = JSON.parse(runCli(victim, ['check', '--fetch', '--json']).stdout);
  });

  it('10,000,000 commits and a start in 2000 that its commits do not show: skipped with the reason, the victim is not told to steer', () => {
    expect(report.scanned.skipped.join('\n')).toMatch(
      /beacon refs\/airspace\/remote\/beacons\/[0-9a-f]{10}\/mallory%2Fwork ignored: its right-of-way claims disagree with its own commits \(claims 10000000 commits, its work shows 1\)/,
    );
    expect(linkWith(report, 'mallory/work')).toBeUndefined();
    expect(report.verdict.steerFrom).toEqual([]);
  });

  it('a start at its own back-dated commit is provable but ranks nothing: both machines agree mallory steers', async () => {
    // Mallory controls its commit dates; a claim that matches them passes the check, yet right of
    // way counts pushed commits only, and mallory pushed none (as it ranks itself on its machine).
    const { victim, mallory } = scene('2001-01-01T00:00:00Z');
    await forge(mallory, { committedWork: 1, startedAt: Date.UTC(2001, 0, 1) });
    const seen = JSON.parse(runCli(victim, ['check', '--fetch', '--json']).stdout);
    const link = linkWith(seen, 'mallory/work');
    expect(link).toMatchObject({ steer: 'mallory/work', hold: 'victim/work' });
    expect(seen.agents.find((a: { id: string }) => a.id === 'mallory/work')).toMatchObject({ kind: 'beacon', committedWork: 0, startedAt: null });

    const own = JSON.parse(runCli(mallory, ['check', '--fetch', '--json']).stdout);
    expect(linkWith(own, 'victim/work')).toMatchObject({ steer: 'mallory/work', hold: 'victim/work' });
  });

  it('a beacon that claims nothing costs no check and is read as before', () => {
    expect(report.scanned.skipped.filter((line: string) => line.includes('honest'))).toEqual([]);
    expect(linkWith(report, 'honest/work')).toMatchObject({ steer: 'honest/work', hold: 'victim/work' });
  });
});
