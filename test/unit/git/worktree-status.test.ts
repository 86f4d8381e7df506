import { describe, expect, it } from 'vitest';
import { parseStatus, statusChanges, worktreeSidePaths } from '../../../src/git/worktree-status.js';

const raw = Buffer.from(
  ['M  staged.ts', ' M edited.ts', 'MM both.ts', ' D gone.ts', 'D  removed.ts', '?? new dir/ü.ts', 'UU conflict.ts', ' A intent.ts', ''].join('\0'),
);

describe('git status --porcelain -z records', () => {
  it('parse into X, Y and the path verbatim (spaces, unicode)', () => {
    const entries = parseStatus(raw);
    expect(entries).toHaveLength(8);
    expect(entries[5]).toEqual({ x: '?', y: '?', path: 'new dir/ü.ts' });
  });

  it('only paths whose worktree side differs are re-read for a snapshot (index-only changes are in the copy)', () => {
    expect(worktreeSidePaths(parseStatus(raw))).toEqual(['edited.ts', 'both.ts', 'gone.ts', 'new dir/ü.ts', 'conflict.ts', 'intent.ts']);
  });

  it('map to the graph layer worktree changes', () => {
    expect(statusChanges(parseStatus(raw))).toEqual({
      modified: ['edited.ts', 'both.ts', 'conflict.ts', 'intent.ts'],
      deleted: ['gone.ts'],
      untracked: ['new dir/ü.ts'],
    });
  });
});
