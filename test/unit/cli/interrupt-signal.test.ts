import { describe, expect, it } from 'vitest';
import { interruptSignal } from '../../../src/cli/interrupt-signal.js';

describe('interruptSignal', () => {
  it('adds one pair of listeners per process however often a command asks for it', () => {
    const before = process.listenerCount('SIGINT');
    const first = interruptSignal();
    const afterFirst = process.listenerCount('SIGINT');
    for (let i = 0; i < 20; i++) expect(interruptSignal()).toBe(first);
    expect(afterFirst - before).toBeLessThanOrEqual(1);
    expect(process.listenerCount('SIGINT')).toBe(afterFirst);
    expect(first.aborted).toBe(false);
  });
});
