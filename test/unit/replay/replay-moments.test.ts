import { describe, expect, it } from 'vitest';
import { parseCommitGraph } from '../../../src/git/branch-history.js';
import { firstParentChain } from '../../../src/replay/replay-history.js';
import { bothActiveCut, firstParentCount, prefixAt, sideStart, type ChainCommit } from '../../../src/replay/replay-moments.js';
import { sideStateAt, withEditTimes } from '../../../src/replay/replay-side-state.js';

const chain = (...times: number[]): ChainCommit[] => times.map((time, i) => ({ sha: `c${i}`, time }));

describe('both-active cut', () => {
  it('starts when the later side starts and cuts at f of the way to the merge', () => {
    const a = chain(100, 300);
    const b = chain(200, 250);
    expect(sideStart(a)).toBe(100);
    expect(bothActiveCut(a, b, 1000, 0.5)).toBe(600);
    expect(bothActiveCut(a, b, 1000, 0.25)).toBe(400);
    expect(bothActiveCut(b, a, 1000, 0.75)).toBe(800);
  });

  it('floors the cut time, like the dataset', () => {
    expect(bothActiveCut(chain(0), chain(1), 4, 0.5)).toBe(2);
    expect(bothActiveCut(chain(0), chain(0), 5, 0.5)).toBe(2);
  });

  it('has no cut when a side has no commit at all', () => {
    expect(bothActiveCut([], chain(1), 10, 0.5)).toBeNull();
    expect(sideStart([])).toBeNull();
  });
});

describe('side state at a moment', () => {
  it('is the last commit before the first one newer than t', () => {
    const c = chain(10, 20, 30);
    expect(prefixAt(c, 25)?.sha).toBe('c1');
    expect(prefixAt(c, 30)?.sha).toBe('c2');
    expect(prefixAt(c, 9)).toBeNull();
    expect(firstParentCount(c, prefixAt(c, 25))).toBe(2);
    expect(firstParentCount(c, null)).toBe(0);
  });

  it('stops at the first newer commit even when a later one is older again (non-monotone clocks)', () => {
    expect(prefixAt(chain(10, 50, 20), 30)?.sha).toBe('c0');
  });
});

/** A `git log --format=%x01%H%x09%ct%x09%P%x09%s --name-only -z` output, built by hand. */
function logOutput(commits: { sha: string; time: number; parents: string[]; files: string[] }[]): string {
  return commits.map((c) => `\x01${c.sha}\t${c.time}\t${c.parents.join(' ')}\tsubject\0${c.files.length ? `\n${c.files.join('\0')}\0` : ''}`).join('');
}

describe('sides from one log of P1...P2', () => {
  // Side: s1 (forked before the base B) → sync merge s2 (parents s1, B) → s3. Base B is not in the log.
  const graph = parseCommitGraph(
    logOutput([
      { sha: 's3', time: 300, parents: ['s2'], files: ['z.ts'] },
      { sha: 's2', time: 200, parents: ['s1', 'B'], files: [] },
      { sha: 's1', time: 100, parents: ['old'], files: ['z.ts', 'a.ts'] },
    ]),
  );

  it('walks the first-parent chain oldest first, in seconds', () => {
    expect(firstParentChain(graph, 's3')).toEqual([
      { sha: 's1', time: 100 },
      { sha: 's2', time: 200 },
      { sha: 's3', time: 300 },
    ]);
  });

  it('knows whether the prefix descends from the base, and when each file was last edited', () => {
    const early = sideStateAt(graph, { sha: 's1', time: 100 }, 'B');
    expect(early.descendsFromBase).toBe(false);
    expect(early.commits).toBe(1);
    const late = sideStateAt(graph, { sha: 's3', time: 300 }, 'B');
    expect(late.descendsFromBase).toBe(true);
    expect(late.commits).toBe(3);
    expect(late.startedAt).toBe(100_000);
    expect(Object.fromEntries(late.editTimes)).toEqual({ 'z.ts': 300_000, 'a.ts': 100_000 });
    const stamped = withEditTimes(
      {
        base: 'B',
        files: [
          { file: 'a.ts', status: 'M' },
          { file: 'q.ts', status: 'M' },
        ],
      },
      late.editTimes,
    );
    expect(stamped.files.map((f) => f.lastEditTime)).toEqual([100_000, undefined]);
  });
});
