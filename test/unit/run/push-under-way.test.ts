import { describe, expect, it } from 'vitest';
import type { Beacon } from '../../../src/beacon/beacon-schema.js';
import type { AirspaceConfig } from '../../../src/config/defaults.js';
import type { RunJudgement } from '../../../src/run/assemble-report.js';
import { publishOwnBeacon, settledBeacon } from '../../../src/run/publish-own-beacon.js';
import { agentReports, PUSH_CLOCK_AHEAD_MS, PUSH_IN_FLIGHT_MS } from '../../../src/run/report-facts.js';
import { startBudget } from '../../../src/run/run-budget.js';
import type { Airspace } from '../../../src/traffic/collect-airspace.js';

/** Which beacon-only peers a pre-push counts as still pushing (src/run/recheck-after-announce.ts steers from those). */
const NOW = Date.UTC(2026, 11, 2, 12);
const SHA = 'a'.repeat(40);
const empty = { ownship: null, traffic: [], pairs: [] } as unknown as Airspace;

function beacon(extra: Partial<Beacon>): Beacon {
  return {
    schema: 1,
    agent: 'two/work',
    branch: 'two/work',
    head: SHA,
    base: 'b'.repeat(40),
    workingSet: { base: 'b'.repeat(40), files: [] },
    intent: [],
    committedWork: 0,
    startedAt: null,
    updatedAt: NOW - 1_000,
    ...extra,
  };
}

function pushingOf(b: Beacon): boolean {
  const [report] = agentReports(empty, [{ id: b.agent, beacon: b, merged: false }], [], new Map(), NOW, 3_600_000);
  return report?.pushing === true;
}

describe('an announced push under way', () => {
  it('is a fresh beacon a pre-push published', () => {
    expect(pushingOf(beacon({ pushing: true }))).toBe(true);
    expect(pushingOf(beacon({ pushing: true, updatedAt: NOW - PUSH_IN_FLIGHT_MS }))).toBe(true);
  });
  it('is not a beacon any other publish wrote', () => {
    expect(pushingOf(beacon({}))).toBe(false);
  });
  it('is settled once the window has passed (a push that never landed steered)', () => {
    expect(pushingOf(beacon({ pushing: true, updatedAt: NOW - PUSH_IN_FLIGHT_MS - 1 }))).toBe(false);
  });
  it('is not a beacon dated further ahead than clocks drift (the reader accepts ten minutes ahead)', () => {
    expect(pushingOf(beacon({ pushing: true, updatedAt: NOW + PUSH_CLOCK_AHEAD_MS }))).toBe(true);
    expect(pushingOf(beacon({ pushing: true, updatedAt: NOW + PUSH_CLOCK_AHEAD_MS + 1 }))).toBe(false);
    expect(pushingOf(beacon({ pushing: true, updatedAt: NOW + 9 * 60_000 }))).toBe(false);
  });
});

describe('the settle of an announce (src/run/run-airspace.ts stage 6c)', () => {
  it('is the beacon without `pushing`, dated in a later second than the announce', () => {
    const announce = beacon({ pushing: true, updatedAt: NOW + 900 });
    const settled = settledBeacon(beacon({ updatedAt: NOW + 950 }), announce, NOW + 950);
    expect(settled.pushing).toBeUndefined();
    // Readers rank by the commit date in seconds and read the legacy ref on a tie (src/beacon/read-beacons.ts).
    expect(Math.floor(settled.updatedAt / 1000)).toBeGreaterThan(Math.floor(announce.updatedAt / 1000));
    expect(settledBeacon(beacon({ pushing: true }), announce, NOW + 5_000).updatedAt).toBe(NOW + 5_000);
  });

  it('skipped for want of time says so in a line, which the run prints', async () => {
    const budget = startBudget({ budgetMs: 1_000, startedAt: 0, clock: () => 950 });
    const judged = { ownBeacon: beacon({}) } as unknown as RunJudgement;
    const line = await publishOwnBeacon(budget, '/nonexistent', 'origin', {} as AirspaceConfig, judged, '/nonexistent', 'not settled');
    expect(line).toBe('not settled');
    expect(budget.log.at(-1)).toMatchObject({ stage: 'beacon publish', state: 'skipped' });
    budget.dispose();
  });
});
