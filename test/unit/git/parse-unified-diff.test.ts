import { describe, expect, it } from 'vitest';
import { baseRange, parseUnifiedDiff } from '../../../src/git/parse-unified-diff.js';
import { parseLogTimes } from '../../../src/git/last-edit-times.js';

const Z = '0'.repeat(40);
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
/** The files without the identity fields (hunk ids, object id): their own tests are in test/unit/traffic/identical-edits.test.ts. */
const shapes = (files: readonly object[]): object[] => files.map(({ hunkIds: _h, blob: _b, ...rest }: { hunkIds?: unknown; blob?: unknown }) => rest);
const raw = (status: string, ...paths: string[]): string => `:100644 100644 ${A} ${B} ${status}\0${paths.join('\0')}\0`;

describe('baseRange', () => {
  it('turns -s,c into half-open base ranges and insertions into empty ranges after s', () => {
    expect(baseRange(2, 1)).toEqual([2, 3]);
    expect(baseRange(10, 4)).toEqual([10, 14]);
    expect(baseRange(4, 0)).toEqual([5, 5]);
    expect(baseRange(0, 0)).toEqual([1, 1]);
  });
});

describe('parseUnifiedDiff', () => {
  it('reads hunks, ignores content lines that look like headers, and keeps odd paths verbatim', () => {
    const output =
      raw('M', 'f.txt') +
      raw('M', 'nl\nname.txt') +
      '\0' +
      'diff --git a/f.txt b/f.txt\nindex 1..2 100644\n--- a/f.txt\n+++ b/f.txt\n@@ -2 +2 @@ a\n-b\n+B\n@@ -4,0 +5 @@ d\n+e\n@@ -7,3 +8 @@\n--- not a header\n-@@ -1 +1 @@\n-diff --git a/x b/x\n+Binary files x differ\n' +
      'diff --git "a/nl\\nname.txt" "b/nl\\nname.txt"\n--- "a/nl\\nname.txt"\n+++ "b/nl\\nname.txt"\n@@ -1,2 +1,2 @@\n-x\n-y\n+x\n+z\n\\ No newline at end of file\n';
    const parsed = parseUnifiedDiff(output);
    expect(parsed.unparsed).toBe(false);
    expect(shapes(parsed.files)).toEqual([
      {
        file: 'f.txt',
        status: 'M',
        ranges: [
          [2, 3],
          [5, 5],
          [7, 10],
        ],
      },
      { file: 'nl\nname.txt', status: 'M', ranges: [[1, 3]] },
    ]);
  });

  it('treats binary, added, deleted, type changes (two sections) and hunk-less renames as whole files', () => {
    const output =
      raw('M', 'bin.dat') +
      `:000000 100644 ${Z} ${B} A\0new file.txt\0` +
      raw('T', 'link') +
      raw('R100', 'old.txt', 'ü/new.txt') +
      raw('R087', 'a.ts', 'b.ts') +
      `:100644 000000 ${A} ${Z} D\0gone\0` +
      '\0' +
      'diff --git a/bin.dat b/bin.dat\nindex 1..2 100644\nBinary files a/bin.dat and b/bin.dat differ\n' +
      'diff --git a/new file.txt b/new file.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new file.txt\n@@ -0,0 +1 @@\n+x\n' +
      'diff --git a/link b/link\ndeleted file mode 120000\n@@ -1 +0,0 @@\n-f\n' +
      'diff --git a/link b/link\nnew file mode 100644\n@@ -0,0 +1 @@\n+hi\n' +
      'diff --git a/old.txt b/ü/new.txt\nsimilarity index 100%\nrename from old.txt\nrename to ü/new.txt\n' +
      'diff --git a/a.ts b/b.ts\nsimilarity index 87%\n--- a/a.ts\n+++ b/b.ts\n@@ -3 +3 @@\n-x\n+y\n' +
      'diff --git a/gone b/gone\ndeleted file mode 100644\n@@ -1 +0,0 @@\n-x\n';
    const { files, unparsed } = parseUnifiedDiff(output);
    expect(unparsed).toBe(false);
    expect(shapes(files)).toEqual([
      { file: 'bin.dat', status: 'M', whole: true, binary: true },
      { file: 'new file.txt', status: 'A', whole: true },
      { file: 'link', status: 'T', whole: true },
      { file: 'old.txt', path: 'ü/new.txt', status: 'R', whole: true },
      { file: 'a.ts', path: 'b.ts', status: 'R', ranges: [[3, 4]] },
      { file: 'gone', status: 'D', whole: true },
    ]);
  });

  it('does not guess when the patch and the file list disagree', () => {
    const output = `${raw('M', 'a') + raw('M', 'b')}\0diff --git a/a b/a\n@@ -1 +1 @@\n-x\n+y\n`;
    const parsed = parseUnifiedDiff(output);
    expect(parsed.unparsed).toBe(true);
    expect(parsed.files.every((file) => file.whole === true)).toBe(true);
  });

  it('returns nothing for an empty diff', () => {
    expect(parseUnifiedDiff('')).toEqual({ files: [], unparsed: false });
  });
});

describe('parseLogTimes', () => {
  it('keeps the newest commit time per path and strips only the format newline', () => {
    const output = '\x011700000200\0\na.txt\0\nweird\0\x011700000100\0\na.txt\0b.txt\0';
    const times = parseLogTimes(output);
    expect(times.get('a.txt')).toBe(1700000200_000);
    expect(times.get('\nweird')).toBe(1700000200_000);
    expect(times.get('b.txt')).toBe(1700000100_000);
  });
});
