import { describe, expect, it } from 'vitest';
import { advise, closureRate, pairKey, type Agent } from '../../../src/index.js';
import { REFERENCE_OPTIONS } from './reference-options.js';

const HOUR = 3_600_000;

describe('closure rate and early escalation', () => {
  it('is ΔR / Δt in risk per hour from the two most recent distinct times', () => {
    expect(
      closureRate([
        { at: 0, risk: 0.1 },
        { at: 2 * HOUR, risk: 0.3 },
      ]),
    ).toBeCloseTo(0.1, 12);
    expect(
      closureRate([
        { at: 5 * HOUR, risk: 0.2 },
        { at: 0, risk: 0 },
        { at: 4 * HOUR, risk: 0.4 },
      ]),
    ).toBeCloseTo(-0.2, 12);
    expect(
      closureRate([
        { at: 0, risk: 0.1 },
        { at: HOUR, risk: 0.2 },
        { at: HOUR, risk: 0.3 },
      ]),
    ).toBeCloseTo(0.2, 12);
    expect(closureRate([{ at: 0, risk: 0.1 }])).toBeNull();
    expect(closureRate([])).toBeNull();
  });

  it('pairKey does not depend on order', () => {
    expect(pairKey('a', 'b')).toBe(pairKey('b', 'a'));
    expect(pairKey('a', 'bc')).not.toBe(pairKey('ab', 'c'));
  });

  it('escalates a closing pair just below τ_TA to TA, and only then', () => {
    // Same directory, different files: tree = 0.5 → R = 0.25 · 0.5 = 0.125 with the reference weights.
    const a: Agent = { id: 'a', files: [{ path: 'src/x.ts' }] };
    const b: Agent = { id: 'b', files: [{ path: 'src/y.ts' }] };
    const empty = { adjacency: {} };
    const now = 10 * HOUR;
    const options = { ...REFERENCE_OPTIONS, now, tauTA: 0.2, escalationMargin: 0.1, escalationRatePerHour: 0.05 };
    const key = pairKey('a', 'b');
    const closing = advise(a, b, empty, { ...options, history: { [key]: [{ at: now - HOUR, risk: 0.05 }] } });
    expect(closing.risk).toBeCloseTo(0.125, 12);
    expect(closing.closureRate).toBeCloseTo(0.075, 12);
    expect(closing.level).toBe('TA');
    expect(closing.escalated).toBe(true);
    const slow = advise(a, b, empty, { ...options, history: { [key]: [{ at: now - HOUR, risk: 0.1 }] } });
    expect(slow.level).toBe('clear');
    const far = advise(a, b, empty, { ...options, tauTA: 0.3, history: { [key]: [{ at: now - HOUR, risk: 0 }] } });
    expect(far.level).toBe('clear'); // closing fast but 0.175 below τ_TA, outside the margin
    expect(advise(a, b, empty, options).closureRate).toBeUndefined();
  });
});
