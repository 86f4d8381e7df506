import { describe, expect, it } from 'vitest';
import { symbolShare } from '../../../src/channels/symbol-channels.js';

/** The symbol channel's share of a run's budget (src/channels/symbol-channels.ts). */
describe('symbolShare', () => {
  it('takes a fractional time left (a budget measured with performance.now) and follows the run signal', () => {
    const run = new AbortController();
    const share = symbolShare({ signal: run.signal, budgetMs: 120_000, remaining: () => 113_370.393023 });
    expect(share.aborted).toBe(false);
    run.abort(new Error('cut'));
    expect(share.aborted).toBe(true);
  });

  it('is the run signal itself when the run has no budget', () => {
    const run = new AbortController();
    expect(symbolShare({ signal: run.signal, budgetMs: null, remaining: () => Infinity })).toBe(run.signal);
  });
});
