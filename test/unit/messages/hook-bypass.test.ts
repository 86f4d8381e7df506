import { describe, expect, it } from 'vitest';
import { hookMessages } from '../../../src/messages/hooks-and-check.js';

/** Every line with which a hook blocks names that hook's own bypass and the environment switch. */
describe('hook blocking lines carry the right bypass', () => {
  it('pre-commit: git commit --no-verify and AIRSPACE_HOOKS=0, never git push', () => {
    for (const line of [hookMessages.failedClosed('pre-commit', 'boom'), hookMessages.cutClosed('pre-commit', 'reached its 100 ms budget')]) {
      expect(line).toContain('Bypass: git commit --no-verify, or AIRSPACE_HOOKS=0 for one command');
      expect(line).not.toContain('git push');
    }
  });

  it('pre-push: git push --no-verify and AIRSPACE_HOOKS=0', () => {
    for (const line of [
      hookMessages.failedClosed('pre-push', 'boom'),
      hookMessages.cutClosed('pre-push', 'reached its 100 ms budget'),
      hookMessages.fetchFailedClosed('timeout'),
    ])
      expect(line).toContain('Bypass: git push --no-verify, or AIRSPACE_HOOKS=0 for one command');
  });
});
