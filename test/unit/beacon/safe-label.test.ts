import { describe, expect, it } from 'vitest';
import { isSafeLabel } from '../../../src/beacon/safe-repo-path.js';

/** Agent ids and branch names from beacons must be visible names (issue 24, item 4). */
describe('isSafeLabel', () => {
  it('accepts the names agents have', () => {
    for (const name of ['alice', 'feature/x', 'claude/fix-login', 'wt my worktree', 'café/日本語', 'v1.2.3', '!']) expect(isSafeLabel(name, 200)).toBe(true);
  });

  it('refuses names with nothing visible, or with leading or trailing whitespace', () => {
    for (const name of ['', ' ', '   ', '\u3000', '\u00a0', ' alice', 'alice ', 'alice\n']) expect(isSafeLabel(name, 200), JSON.stringify(name)).toBe(false);
  });

  it('refuses invisible, control and bidi characters anywhere', () => {
    const hostile = [
      'ali\u200bce',
      'alice\u200d',
      'a\u202eb',
      'a\u2066b',
      'a\u00adb',
      'a\ufeffb',
      'a\u{e0041}b',
      'a\tb',
      'a\u001bb',
      'a\u009bb',
      'a\u2028b',
      'a\u3164b',
      'a\u034fb',
      'a\ud800b',
      'a\\u200bb',
    ];
    for (const name of hostile) expect(isSafeLabel(name, 200), JSON.stringify(name)).toBe(false);
  });

  it('refuses names above the length bound and non-strings', () => {
    expect(isSafeLabel('x'.repeat(201), 200)).toBe(false);
    expect(isSafeLabel(42, 200)).toBe(false);
  });
});
