/** Parsers for `git cat-file --batch-check` / `--batch` output (default formats). */

export interface BatchObjectInfo {
  readonly sha: string;
  readonly type: string;
  readonly size: number;
}

/** `<sha> <type> <size>`; null for `<query> missing` / `ambiguous` or anything unexpected. */
export function parseBatchCheckLine(line: string): BatchObjectInfo | null {
  const match = /^([0-9a-f]{40}|[0-9a-f]{64}) (\w+) (\d+)$/.exec(line);
  if (!match) return null;
  return { sha: match[1]!, type: match[2]!, size: Number(match[3]) };
}

/**
 * `--batch` output: for each object `<sha> <type> <size>\n<content>\n`, or `<query> missing\n`.
 * Returns the contents in input order (null for a missing object). The header is parsed, then
 * exactly `size` bytes are taken, so content with newlines or NULs cannot desynchronize the reader.
 */
export function parseBatchOutput(stdout: Buffer): (Buffer | null)[] {
  const out: (Buffer | null)[] = [];
  let offset = 0;
  while (offset < stdout.length) {
    const newline = stdout.indexOf(0x0a, offset);
    if (newline < 0) break;
    const header = stdout.subarray(offset, newline).toString('utf8');
    const info = parseBatchCheckLine(header);
    if (!info) {
      out.push(null);
      offset = newline + 1;
      continue;
    }
    const start = newline + 1;
    const end = start + info.size;
    if (end > stdout.length) break;
    out.push(stdout.subarray(start, end));
    offset = end + 1;
  }
  return out;
}
