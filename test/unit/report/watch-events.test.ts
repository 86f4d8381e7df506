import { describe, expect, it } from 'vitest';
import type { Link } from '../../../src/engine/types.js';
import { advisoryEvents } from '../../../src/report/watch-events.js';
import { ignoredPath } from '../../../src/app/watch-paths.js';

const link = (a: string, b: string, level: Link['level'], risk: number, files: string[], steer?: string): Link =>
  ({
    a,
    b,
    level,
    risk,
    distance: 1 - risk,
    channels: {},
    driver: null,
    sharedFiles: files.map((path) => ({ path })),
    ...(steer ? { steer, hold: a === steer ? b : a } : {}),
  }) as unknown as Link;

describe('advisoryEvents', () => {
  it('raises new pairs, reports real changes only, clears pairs that are gone (either id order)', () => {
    const before = [link('a', 'b', 'TA', 0.4, ['x.ts']), link('a', 'c', 'TA', 0.5, ['y.ts']), link('b', 'c', 'TA', 0.5, ['z.ts'])];
    const after = [link('b', 'a', 'TA', 0.42, ['x.ts']), link('a', 'c', 'RA', 0.8, ['y.ts'], 'c'), link('c', 'd', 'TA', 0.4, ['w.ts'])];
    const events = advisoryEvents(before, after, 7);
    expect(events.map((e) => [e.type, e.pair.join('+'), e.level])).toEqual([
      ['changed', 'a+c', 'RA'],
      ['raised', 'c+d', 'TA'],
      ['cleared', 'b+c', 'clear'],
    ]);
    expect(events[0]).toMatchObject({ steer: 'c', at: 7, files: ['y.ts'], schema: 'airspace-hooks/watch-event@1' });
    expect(advisoryEvents(after, after, 8)).toEqual([]);
  });

  it('a cleared pair carries its risk now and nobody who steers, not the ended advisory', () => {
    const before = [link('a', 'b', 'RA', 1, ['x.ts'], 'a'), link('a', 'c', 'TA', 0.5, ['y.ts'])];
    const after = [link('b', 'a', 'clear', 0.12, [])];
    const events = advisoryEvents(before, after, 9);
    expect(events.map((e) => [e.type, e.pair.join('+'), e.level, e.risk, e.steer])).toEqual([
      ['cleared', 'a+b', 'clear', 0.12, null],
      ['cleared', 'a+c', 'clear', 0, null],
    ]);
  });
});

describe('ignoredPath', () => {
  const paths = { commonDir: '/r/.git', worktrees: ['/r', '/w'] };
  it('keeps worktree files and the git files that move a line of work; skips objects, logs, our cache, node_modules', () => {
    const kept = [
      '/r/src/a.ts',
      '/w/b.ts',
      '/r/.git',
      '/r/.git/HEAD',
      '/r/.git/index',
      '/r/.git/refs',
      '/r/.git/refs/heads/x',
      '/r/.git/packed-refs',
      '/r/.git/worktrees',
      '/r/.git/worktrees/w',
      '/r/.git/worktrees/w/index',
      '/r/.git/worktrees/w/HEAD',
    ];
    const skipped = [
      '/r/.git/objects/ab/cd',
      '/r/.git/logs/HEAD',
      '/r/.git/airspace/history.json',
      '/r/.git/worktrees/w/airspace/inbox.json',
      '/r/node_modules/x/y.js',
      '/w/.git',
      '/w/pkg/node_modules/z',
      // A lock is renamed into place: the ref or index itself is reported then.
      '/r/.git/refs/heads/x.lock',
      '/r/.git/index.lock',
      '/r/.git/worktrees/w/index.lock',
    ];
    expect(kept.filter((p) => ignoredPath(p, paths))).toEqual([]);
    expect(skipped.filter((p) => !ignoredPath(p, paths))).toEqual([]);
  });
});
