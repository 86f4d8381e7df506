/**
 * Which lines of the new version of a file are new: Myers' O((N+M)·D) line diff of the two
 * versions (common prefix and suffix stripped first), the algorithm git uses by default, so the
 * lines found are the ones git's own diff would show as added. A diff of more than MAX_EDITS
 * edits counts every middle line as added — more uses are read, never fewer. Pure; the channel
 * has both blobs in memory already, so no extra git process is needed.
 */
const MAX_EDITS = 1_500;

export function addedLines(before: string | null, after: string): Set<number> {
  const ids = new Map<string, number>();
  const id = (line: string): number => {
    let value = ids.get(line);
    if (value === undefined) {
      value = ids.size;
      ids.set(line, value);
    }
    return value;
  };
  const b = before === null ? [] : before.split('\n').map(id);
  const a = after.split('\n').map(id);
  let start = 0;
  while (start < b.length && start < a.length && b[start] === a[start]) start++;
  let endB = b.length;
  let endA = a.length;
  while (endB > start && endA > start && b[endB - 1] === a[endA - 1]) {
    endB--;
    endA--;
  }
  const added = new Set<number>();
  const x = b.slice(start, endB);
  const y = a.slice(start, endA);
  const inserted = x.length === 0 ? y.map((_, j) => j) : insertions(x, y);
  if (inserted === null) for (let j = 0; j < y.length; j++) added.add(start + j + 1);
  else for (const j of inserted) added.add(start + j + 1);
  return added;
}

/** Indexes of `y` not matched to `x` by a shortest edit script; null when it needs too many edits. */
function insertions(x: readonly number[], y: readonly number[]): number[] | null {
  const n = x.length;
  const m = y.length;
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    // Only diagonals -d-1..d+1 can be read back at this step: keep just those (memory O(D²), not O(D·N)).
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let i = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let j = i - k;
      while (i < n && j < m && x[i] === y[j]) {
        i++;
        j++;
      }
      v[offset + k] = i;
      if (i >= n && j >= m) return backtrack(trace, x.length, y.length, d);
    }
  }
  return null;
}

function backtrack(trace: readonly Int32Array[], n: number, m: number, last: number): number[] {
  const inserted: number[] = [];
  let i = n;
  let j = m;
  for (let d = last; d > 0; d--) {
    const v = trace[d]!;
    const at = (diagonal: number): number => v[diagonal + d + 1]!;
    const k = i - j;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevI = at(prevK);
    const prevJ = prevI - prevK;
    while (i > prevI && j > prevJ) {
      i--;
      j--;
    }
    if (down) inserted.push(prevJ);
    i = prevI;
    j = prevJ;
  }
  return inserted.sort((p, q) => p - q);
}
