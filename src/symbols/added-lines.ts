/**
 * Which lines of the new version of a file are new: a line diff of the two versions (common
 * prefix and suffix stripped, then a longest-common-subsequence table on what remains). When the
 * middle is too large for the table, every middle line counts as added — more uses are read, never
 * fewer. Pure; the channel has both blobs in memory already, so no extra git process is needed.
 */
const MAX_CELLS = 4_000_000;

export function addedLines(before: string | null, after: string): Set<number> {
  const b = before === null ? [] : before.split('\n');
  const a = after.split('\n');
  let start = 0;
  while (start < b.length && start < a.length && b[start] === a[start]) start++;
  let endB = b.length;
  let endA = a.length;
  while (endB > start && endA > start && b[endB - 1] === a[endA - 1]) {
    endB--;
    endA--;
  }
  const added = new Set<number>();
  const n = endB - start;
  const m = endA - start;
  if (n === 0 || n * m > MAX_CELLS) {
    for (let i = start; i < endA; i++) added.add(i + 1);
    return added;
  }
  // table[i][j] = LCS length of b[start+i..endB) and a[start+j..endA).
  const width = m + 1;
  const table = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * width + j] = b[start + i] === a[start + j] ? table[(i + 1) * width + j + 1]! + 1 : Math.max(table[(i + 1) * width + j]!, table[i * width + j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  while (j < m) {
    if (i < n && b[start + i] === a[start + j]) {
      i++;
      j++;
    } else if (i < n && table[(i + 1) * width + j]! >= table[i * width + j + 1]!) i++;
    else {
      added.add(start + j + 1);
      j++;
    }
  }
  return added;
}
