import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../../../src/git/parse-unified-diff.js';
import { withoutIdenticalEdits } from '../../../src/traffic/identical-edits.js';
import type { WorkingSet, WorkingSetFile } from '../../../src/traffic/working-set.js';

const set = (...files: WorkingSetFile[]): WorkingSet => ({ base: 'b'.repeat(40), files });
const raw = (dst: string, status = 'M'): string => `:100644 100644 ${'a'.repeat(40)} ${dst} ${status}\0f.ts\0\0`;

describe('hunk ids from the diff parser', () => {
  it('gives the same id to the same change and a different one to any other change', () => {
    const patch = (body: string): string => `diff --git a/f.ts b/f.ts\n--- a/f.ts\n+++ b/f.ts\n@@ -10,2 +10,2 @@\n${body}@@ -40 +40 @@\n-x\n+y\n`;
    const same1 = parseUnifiedDiff(raw('c'.repeat(40)) + patch('-a\n-b\n+A\n+B\n')).files[0]!;
    const same2 = parseUnifiedDiff(raw('d'.repeat(40)) + patch('-a\n-b\n+A\n+B\n')).files[0]!;
    const other = parseUnifiedDiff(raw('e'.repeat(40)) + patch('-a\n-b\n+A\n+C\n')).files[0]!;
    expect(same1.ranges).toEqual([
      [10, 12],
      [40, 41],
    ]);
    expect(same1.hunkIds).toHaveLength(2);
    expect(same1.hunkIds).toEqual(same2.hunkIds);
    expect(other.hunkIds![0]).not.toBe(same1.hunkIds![0]);
    expect(other.hunkIds![1]).toBe(same1.hunkIds![1]);
    expect(same1.blob).toBe('c'.repeat(40));
  });

  it("gives a section's last hunk the same id as any other (a batched diff's trailing text is not content)", () => {
    const section = 'diff --git a/f.ts b/f.ts\n--- a/f.ts\n+++ b/f.ts\n@@ -3 +3 @@\n-x\n+y\n';
    const last = parseUnifiedDiff(raw('c'.repeat(40)) + section + '\n').files[0]!;
    const first = parseUnifiedDiff(raw('c'.repeat(40)) + section + '@@ -9 +9 @@\n-p\n+q\n').files[0]!;
    expect(last.hunkIds![0]).toBe(first.hunkIds![0]);
  });

  it('keeps the all-zero id only for a deletion', () => {
    const deleted = parseUnifiedDiff(
      `:100644 000000 ${'a'.repeat(40)} ${'0'.repeat(40)} D\0gone\0\0diff --git a/gone b/gone\ndeleted file mode 100644\n@@ -1 +0,0 @@\n-x\n`,
    ).files[0]!;
    expect(deleted.blob).toBe('0'.repeat(40));
  });
});

describe('withoutIdenticalEdits', () => {
  it('drops a file both sides leave with the same content', () => {
    const [a, b] = withoutIdenticalEdits(
      set({ file: 'f.ts', status: 'M', ranges: [[3, 4]], hunkIds: ['x'], blob: 'c1' }, { file: 'g.ts', status: 'M', ranges: [[1, 2]], blob: 'c2' }),
      set({ file: 'f.ts', status: 'M', ranges: [[3, 4]], hunkIds: ['x'], blob: 'c1' }, { file: 'g.ts', status: 'M', ranges: [[1, 2]], blob: 'c3' }),
    );
    expect(a.files.map((f) => f.file)).toEqual(['g.ts']);
    expect(b.files.map((f) => f.file)).toEqual(['g.ts']);
  });

  it('drops the shared identical hunks and keeps what differs', () => {
    const [a, b] = withoutIdenticalEdits(
      set({
        file: 'f.ts',
        status: 'M',
        ranges: [
          [3, 4],
          [10, 12],
        ],
        hunkIds: ['same', 'mine'],
        blob: 'c1',
      }),
      set({
        file: 'f.ts',
        status: 'M',
        ranges: [
          [3, 4],
          [10, 12],
        ],
        hunkIds: ['same', 'theirs'],
        blob: 'c2',
      }),
    );
    expect(a.files).toEqual([{ file: 'f.ts', status: 'M', ranges: [[10, 12]], hunkIds: ['mine'], blob: 'c1' }]);
    expect(b.files).toEqual([{ file: 'f.ts', status: 'M', ranges: [[10, 12]], hunkIds: ['theirs'], blob: 'c2' }]);
  });

  it('removes an entry whose every hunk is shared, on that side only', () => {
    const [a, b] = withoutIdenticalEdits(
      set({
        file: 'f.ts',
        status: 'M',
        ranges: [
          [3, 4],
          [30, 31],
        ],
        hunkIds: ['same', 'extra'],
        blob: 'c1',
      }),
      set({ file: 'f.ts', status: 'M', ranges: [[3, 4]], hunkIds: ['same'], blob: 'c2' }),
    );
    expect(a.files).toEqual([{ file: 'f.ts', status: 'M', ranges: [[30, 31]], hunkIds: ['extra'], blob: 'c1' }]);
    expect(b.files).toEqual([]);
  });

  it('needs the same range as well as the same id, and changes nothing without ids', () => {
    const moved = [
      set({ file: 'f.ts', status: 'M', ranges: [[3, 4]], hunkIds: ['x'] }),
      set({ file: 'f.ts', status: 'M', ranges: [[5, 6]], hunkIds: ['x'] }),
    ] as const;
    expect(withoutIdenticalEdits(...moved)).toEqual(moved);
    const data = [set({ file: 'f.ts', status: 'M', ranges: [[3, 4]] }), set({ file: 'f.ts', status: 'M', ranges: [[3, 4]] })] as const;
    expect(withoutIdenticalEdits(...data)).toEqual(data);
    const renamed = [set({ file: 'f.ts', path: 'a.ts', status: 'R', blob: 'c' }), set({ file: 'f.ts', path: 'b.ts', status: 'R', blob: 'c' })] as const;
    expect(withoutIdenticalEdits(...renamed)).toEqual(renamed);
  });
});
