import { describe, expect, it } from 'vitest';
import type { Beacon } from '../../../src/beacon/beacon-schema.js';
import { agentReports, PUSH_CLOCK_AHEAD_MS, PUSH_IN_FLIGHT_MS } from '../../../src/run/report-facts.js';
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
