import { describe, expect, it } from 'vitest';
import { batchableShared, conflictsByPair, planEntries } from '../../../src/channels/batch-merge-plan.js';
import { provenAgainst } from '../../../src/channels/proven-merge-base.js';
import type { RawChange } from '../../../src/git/raw-changes.js';

const id = (n: number): string => n.toString(16).padStart(40, '0');
const ZERO = '0'.repeat(40);
const M = (path: string, blob = 2, mode = '100644'): RawChange => ({ path, status: 'M', baseMode: '100644', mode, baseBlob: id(1), blob: id(blob) });
const A = (path: string): RawChange => ({ path, status: 'A', baseMode: '000000', mode: '100644', baseBlob: ZERO, blob: id(3) });
const D = (path: string): RawChange => ({ path, status: 'D', baseMode: '100644', mode: '000000', baseBlob: id(1), blob: ZERO });

describe('batchableShared: a pair whose merge is its shared files alone', () => {
  it('keeps modify/modify of regular files, with both sides’ modes and blobs', () => {
    expect(batchableShared([M('a.ts', 2), M('only-ours.ts')], [M('a.ts', 4, '100755'), A('new.ts')])).toEqual([
      { path: 'a.ts', base: { mode: '100644', blob: id(1) }, ours: { mode: '100644', blob: id(2) }, theirs: { mode: '100755', blob: id(4) } },
    ]);
    expect(batchableShared([M('a.ts')], [M('b.ts')])).toEqual([]);
  });

  it('refuses what git does more with: renames, file/directory clashes, other shapes on a shared path, non-regular files', () => {
    expect(batchableShared([D('old.ts'), A('new.ts')], [M('x.ts')])).toBeNull();
    expect(batchableShared([A('dir')], [A('dir/file.ts')])).toBeNull();
    expect(batchableShared([M('a.ts')], [D('a.ts')])).toBeNull();
    expect(batchableShared([A('a.ts')], [A('a.ts')])).toBeNull();
    expect(batchableShared([{ ...M('link'), mode: '120000' }], [M('x.ts')])).toBeNull();
    expect(batchableShared([{ ...M('sub'), status: 'T' }], [M('x.ts')])).toBeNull();
    // Deletions alone, or additions alone, on a side: no rename to detect.
    expect(batchableShared([D('old.ts'), M('a.ts')], [A('new.ts'), M('a.ts', 5)])).toHaveLength(1);
  });
});

describe('planEntries and conflictsByPair', () => {
  it('chunks without splitting a pair, and maps conflicted names back in bytewise order', () => {
    const file = (path: string) => ({
      path,
      base: { mode: '100644', blob: id(1) },
      ours: { mode: '100644', blob: id(2) },
      theirs: { mode: '100644', blob: id(3) },
    });
    const chunks = planEntries(
      new Map([
        [0, [file('b.ts'), file('a.ts')]],
        [1, []],
        [2, [file('z.ts')]],
      ]),
      2,
    );
    expect(chunks.map((chunk) => chunk.map((entry) => entry.name))).toEqual([['0.0', '0.1'], ['2.0']]);
    const byPair = conflictsByPair(chunks, [new Set(['0.0', '0.1']), new Set()]);
    expect([...byPair]).toEqual([[0, ['a.ts', 'b.ts']]]);
  });
});

describe('provenAgainst: the declared base is the one merge base', () => {
  const B = 'B';
  it('holds for tips off the base that share no commit with ours', () => {
    const parents = new Map([
      ['O', ['O1']],
      ['O1', [B]],
      ['T', [B]],
      ['U', ['U1']],
      ['U1', [B, 'old']],
    ]);
    expect(provenAgainst(B, 'O', ['T', 'U', B], parents)).toEqual([true, true, true]);
  });

  it('fails for a tip on top of our commits, a tip that never reaches the base, and when ours does not', () => {
    const parents = new Map([
      ['O', [B]],
      ['T', ['O']],
      ['R', []],
      ['S', ['old']],
    ]);
    expect(provenAgainst(B, 'O', ['T', 'R', 'S', 'unlisted'], parents)).toEqual([false, false, false, false]);
    expect(
      provenAgainst(
        B,
        'X',
        ['T'],
        new Map([
          ['X', ['old']],
          ['T', [B]],
        ]),
      ),
    ).toEqual([false]);
  });
});
