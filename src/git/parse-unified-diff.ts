import { createHash, type Hash } from 'node:crypto';
import type { FileStatus, WorkingSetFile } from '../traffic/working-set.js';

/**
 * Parser of `git diff --raw -z --patch --unified=0` output (one git process for both).
 *
 * Paths come only from the `--raw -z` records, never from the patch headers: those quote and
 * escape unusual names (`"b/nl\nname.txt"`), while the NUL-separated records carry them verbatim.
 * The patch part is only read for hunk headers, hunk bodies (a fingerprint per hunk, so two sides
 * making the byte-identical change can be told apart from a collision — git merges those cleanly)
 * and "Binary files ... differ", and its sections are matched to the raw records by order — git emits both from the same queue. A type change (`T`)
 * is printed as two sections (a deletion then an addition). If the counts do not match we do not
 * guess: every file becomes a whole-file edit and `unparsed` says so.
 */
export interface ParsedDiff {
  readonly files: WorkingSetFile[];
  /** True when the patch could not be matched to the file list (all files counted as whole). */
  readonly unparsed: boolean;
}

interface RawRecord {
  readonly status: FileStatus;
  readonly file: string;
  readonly path?: string;
  /** Post-image object id (all zeros for a deletion or a worktree file git did not hash). */
  readonly blob?: string;
}

interface Section {
  readonly binary: boolean;
  readonly ranges: [number, number][];
  readonly hunkIds: string[];
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/;

export function parseUnifiedDiff(output: string): ParsedDiff {
  const { records, patch } = splitRaw(output);
  const sections = parseSections(patch);
  const expected = records.reduce((n, record) => n + (record.status === 'T' ? 2 : 1), 0);
  const unparsed = records.length > 0 && sections.length !== expected;
  const files: WorkingSetFile[] = [];
  let next = 0;
  for (const record of records) {
    const section = unparsed ? undefined : sections[next];
    next += record.status === 'T' ? 2 : 1;
    files.push(toFile(record, section));
  }
  return { files, unparsed };
}

const NO_BLOB = /^0+$/;

function toFile(record: RawRecord, section: Section | undefined): WorkingSetFile {
  const paths = record.path !== undefined && record.path !== record.file ? { file: record.file, path: record.path } : { file: record.file };
  // A deletion's id is all zeros on every side that deletes: equal ids still mean the same result.
  const blob = record.blob !== undefined && (!NO_BLOB.test(record.blob) || record.status === 'D') ? { blob: record.blob } : {};
  if (section?.binary) return { ...paths, status: record.status, whole: true, binary: true, ...blob };
  // Added, deleted and type-changed files have no base lines to point at. A section without hunks
  // (pure rename, mode change) also counts as whole: the file moved or changed under the other side.
  const whole = section === undefined || record.status === 'A' || record.status === 'D' || record.status === 'T' || section.ranges.length === 0;
  return whole
    ? { ...paths, status: record.status, whole: true, ...blob }
    : { ...paths, status: record.status, ranges: section.ranges, hunkIds: section.hunkIds, ...blob };
}

/** The `--raw -z` records (`:mode mode sha sha STATUS\0path\0[path2\0]`), then the patch text. */
function splitRaw(output: string): { records: RawRecord[]; patch: string } {
  const fields = output.split('\0');
  const records: RawRecord[] = [];
  let i = 0;
  while (i < fields.length && fields[i]!.startsWith(':')) {
    const meta = fields[i]!.split(' ');
    const letter = (meta[4] ?? 'X').charAt(0) as FileStatus;
    const file = fields[i + 1] ?? '';
    const blob = meta[3] !== undefined && /^[0-9a-f]+$/.test(meta[3]) ? { blob: meta[3] } : {};
    if (letter === 'R' || letter === 'C') {
      records.push({ status: letter, file, path: fields[i + 2] ?? file, ...blob });
      i += 3;
    } else {
      records.push({ status: letter, file, ...blob });
      i += 2;
    }
  }
  // An empty field separates the raw records from the patch.
  if (fields[i] === '') i += 1;
  return { records, patch: fields.slice(i).join('\0') };
}

/**
 * Sections start at `diff --git `. Inside a section, content lines always carry a prefix
 * (`+`, `-`, ` `, `\`), so a line starting with `@@ -` is always a hunk header and a line starting
 * with `diff --git ` is always a new section — no need to count hunk lengths.
 */
function parseSections(patch: string): Section[] {
  const sections: { binary: boolean; ranges: [number, number][]; hunkIds: string[] }[] = [];
  let current: { binary: boolean; ranges: [number, number][]; hunkIds: string[] } | undefined;
  let inHunks = false;
  let body: Hash | undefined;
  const closeHunk = (): void => {
    if (current !== undefined && body !== undefined) current.hunkIds.push(body.digest('base64'));
    body = undefined;
  };
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff --git ')) {
      closeHunk();
      current = { binary: false, ranges: [], hunkIds: [] };
      sections.push(current);
      inHunks = false;
      continue;
    }
    if (current === undefined) continue;
    const hunk = HUNK.exec(line);
    if (hunk) {
      closeHunk();
      inHunks = true;
      current.ranges.push(baseRange(Number(hunk[1]), hunk[2] === undefined ? 1 : Number(hunk[2])));
      // The base position is in the range already; the id is the change itself (old and new lines).
      body = createHash('sha1');
    } else if (body !== undefined && (line.startsWith('+') || line.startsWith('-') || line.startsWith('\\'))) {
      // Only content lines: what follows a section's last hunk (a trailing newline, the next
      // commit's header in a batched diff) must not change the id.
      body.update(line).update('\n');
    } else if (!inHunks && line.startsWith('Binary files ')) {
      current.binary = true;
    }
  }
  closeHunk();
  return sections;
}

/** `-s,c`: c > 0 → `[s, s + c)`; c == 0 is an insertion after line s → the empty range `[s+1, s+1)`. */
export function baseRange(start: number, count: number): [number, number] {
  return count > 0 ? [start, start + count] : [start + 1, start + 1];
}
