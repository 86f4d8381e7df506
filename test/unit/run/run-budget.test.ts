import { describe, expect, it } from 'vitest';
import { currentRunSignal, withRunSignal } from '../../../src/git/run-scope.js';
import { isOverBudget, startBudget } from '../../../src/run/run-budget.js';

/** A clock the test moves by hand: what the budget reads, independent of the machine's load. */
function handClock(start: number) {
  let now = start;
  return { read: () => now, advance: (ms: number) => (now += ms) };
}

describe('a run budget', () => {
  it('counts from startedAt: time spent before the run (a hook process start-up) is inside the budget', () => {
    const clock = handClock(400);
    const budget = startBudget({ budgetMs: 500, startedAt: 0, clock: clock.read });
    expect(budget.remaining()).toBe(100);
    clock.advance(100);
    budget.checkDeadline();
    expect(budget.signal.aborted).toBe(true);
    expect(isOverBudget(budget.signal.reason)).toBe(true);
    budget.dispose();
  });

  it('aborts on checkDeadline once the deadline has passed, before its timer had a chance to fire', () => {
    const clock = handClock(0);
    // The timer is set for 10 minutes of real time: only the check can abort within this test.
    const budget = startBudget({ budgetMs: 600_000, clock: clock.read });
    budget.checkDeadline();
    expect(budget.signal.aborted).toBe(false);
    clock.advance(600_000);
    budget.checkDeadline();
    expect(budget.signal.aborted).toBe(true);
    budget.dispose();
  });

  it('does not start a stage past the deadline, and records it as cut', async () => {
    const clock = handClock(0);
    const budget = startBudget({ budgetMs: 600_000, clock: clock.read });
    clock.advance(600_001);
    let started = false;
    const stage = budget.stage('scoring', async () => {
      started = true;
      return 1;
    });
    await expect(stage).rejects.toSatisfy(isOverBudget);
    expect(started).toBe(false);
    expect(budget.log).toEqual([expect.objectContaining({ stage: 'scoring', state: 'cut' })]);
    budget.dispose();
  });

  it('ends a stage when the budget aborts, even if its work never settles', async () => {
    const clock = handClock(0);
    const budget = startBudget({ budgetMs: 600_000, clock: clock.read });
    const never = new Promise<number>(() => undefined);
    const stage = budget.stage('traffic', () => never);
    clock.advance(600_000);
    budget.checkDeadline();
    await expect(stage).rejects.toSatisfy(isOverBudget);
    expect(budget.log.map((record) => record.state)).toEqual(['cut']);
    budget.dispose();
  });

  it('keeps a stage that finished in time as done', async () => {
    const budget = startBudget({ budgetMs: 600_000 });
    await expect(budget.stage('graph', async () => 7)).resolves.toBe(7);
    expect(budget.log).toEqual([expect.objectContaining({ stage: 'graph', state: 'done' })]);
    budget.dispose();
  });
});

describe('the run scope', () => {
  it('lets any git call abort an overdue run: reading the ambient signal runs the deadline check, also in a nested scope', async () => {
    const clock = handClock(0);
    const budget = startBudget({ budgetMs: 600_000, clock: clock.read });
    const share = new AbortController();
    const seen = await withRunSignal(
      budget.signal,
      async () => {
        const before = currentRunSignal()?.aborted;
        clock.advance(600_000);
        // A channel's own share of the budget is a nested scope (src/symbols/symbol-channel.ts).
        const inner = await withRunSignal(share.signal, async () => currentRunSignal());
        return { before, inner };
      },
      budget.checkDeadline,
    );
    expect(seen.before).toBe(false);
    expect(seen.inner).toBe(share.signal);
    expect(budget.signal.aborted).toBe(true);
    budget.dispose();
  });

  it('has no signal outside a run', () => {
    expect(currentRunSignal()).toBeUndefined();
  });
});
