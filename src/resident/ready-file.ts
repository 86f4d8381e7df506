/**
 * The file a pre-commit is answered from without starting Node (docs/decisions/resident.md,
 * "Answers the shell serves"): the resident writes it into a worktree's git dir, and
 * bin/airspace-hooks-ready — POSIX sh, git, `wc`, `tail`, `od`, `cksum` — serves it when every line
 * of its header still holds. Pure: the bytes of the file, and the keys the shell computes, in the
 * shell's own terms, so the two sides agree byte for byte.
 */

/** In the worktree's own git dir (`.git`, or `.git/worktrees/<name>`): what the shell finds with one `rev-parse`. */
export const READY_FILE = 'airspace-ready';
/** One line per commit the shell answered (its clock, epoch seconds): the resident records those runs' history. */
export const SERVED_FILE = 'airspace-served';
export const READY_MAGIC = 'airspace-ready 1';
/** The shell builds the whole answer in one variable before printing (its cost grows with the square of the length in some shells): a longer report takes the CLI. */
export const MAX_READY_BYTES = 16 * 1024;

/** Text as it is, or an age the shell computes when it serves: `formatAge(now − since)`, `since` in epoch ms. */
export type ReadyPart = { readonly text: string } | { readonly since: number };

export interface ReadyHeader {
  /** Names this answer: the shell writes it back in the served log. */
  readonly id: string;
  /** The resident that wrote it: the shell serves nothing of a process that is gone. */
  readonly pid: number;
  /** Epoch seconds: the shell serves it only before this moment. */
  readonly until: number;
  /** The HEAD commit the answer judged. */
  readonly head: string;
  /** `indexKey` of the index the answer judged. */
  readonly index: string;
  /** `posixCksum(envKeyText(env))` of the hook's environment. */
  readonly env: string;
  /** `[ -t 1 ]` and `[ -t 2 ]` of the hook, as two digits: colors follow stderr's. */
  readonly tty: string;
}

/** The file: the magic line, the header one field a line, then one record a line: `L<text>`, `N` (a newline), `A<since>`, and `E`; null past MAX_READY_BYTES or with a field the shell could not read back. */
export function readyFileText(header: ReadyHeader, parts: readonly ReadyPart[]): string | null {
  const fields = [header.id, String(header.pid), String(header.until), header.head, header.index, header.env, header.tty];
  if (fields.some((field) => field.includes('\n'))) return null;
  const records: string[] = [];
  for (const part of parts) {
    if ('since' in part) {
      if (!Number.isSafeInteger(part.since)) return null;
      records.push(`A${part.since}`);
      continue;
    }
    part.text.split('\n').forEach((segment, i) => {
      if (i > 0) records.push('N');
      if (segment !== '') records.push(`L${segment}`);
    });
  }
  // `E` ends it: a file cut short (a full disk) has none, and the shell serves nothing of it.
  const text = `${[READY_MAGIC, ...fields, ...records, 'E'].join('\n')}\n`;
  return Buffer.byteLength(text) <= MAX_READY_BYTES ? text : null;
}

/** The served log's lines, `<epoch ms> <id>`, at most `max` of them (the newest); anything else is skipped. */
export function servedLines(text: string, max = 100): { readonly at: number; readonly id: string }[] {
  const lines: { at: number; id: string }[] = [];
  for (const line of text.split('\n')) {
    const match = /^([1-9]\d{11,13}) ([0-9a-f]{16})$/.exec(line);
    if (match) lines.push({ at: Number(match[1]), id: match[2]! });
  }
  return lines.slice(-max);
}

/**
 * The environment as the shell sees it: `env | awk '/KEPT/ && !/SKIPPED/' | LC_ALL=C sort`.
 * Kept: what git and the run read (every GIT_* and AIRSPACE_*, HOME, XDG_CONFIG_HOME, TZ, PATH) and
 * what decides colors (NO_COLOR, FORCE_COLOR, TERM). Skipped: git's per-command identity, dates,
 * editor and reflog message, the index (compared by content), the prefix and our budget — what the
 * warm airspace never compares either (src/resident/warm-airspace.ts, NOT_READ). Lines, not
 * variables, as `env` prints them: a value with a newline is two lines to awk, and here too.
 */
export const KEPT_ENV = /^(GIT_[A-Za-z0-9_]*|AIRSPACE_[A-Za-z0-9_]*|HOME|XDG_CONFIG_HOME|TZ|PATH|NO_COLOR|FORCE_COLOR|TERM)=/;
export const SKIPPED_ENV =
  /^(GIT_INDEX_FILE|GIT_PREFIX|GIT_EDITOR|GIT_REFLOG_ACTION|GIT_AUTHOR_[A-Za-z0-9_]*|GIT_COMMITTER_[A-Za-z0-9_]*|AIRSPACE_HOOKS_BUDGET_MS)=/;

export function envKeyText(env: Readonly<Record<string, string | undefined>>): Buffer {
  const text = Object.entries(env)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${name}=${value}`)
    .join('\n');
  const lines = text
    .split('\n')
    .filter((line) => KEPT_ENV.test(line) && !SKIPPED_ENV.test(line))
    .map((line) => Buffer.from(`${line}\n`, 'utf8'))
    .sort(Buffer.compare);
  return Buffer.concat(lines);
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 24;
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    table[i] = c >>> 0;
  }
  return table;
})();

/** What POSIX `cksum` prints for these bytes on stdin: the CRC (length appended, complemented) and the length. */
export function posixCksum(bytes: Uint8Array): string {
  let crc = 0;
  const step = (byte: number) => {
    crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
  };
  for (const byte of bytes) step(byte);
  for (let length = bytes.length; length > 0; length = Math.floor(length / 256)) step(length & 0xff);
  return `${~crc >>> 0} ${bytes.length}`;
}

/**
 * An index as the shell reads it — `wc -c` and `tail -c 32 | od -An -v -tx1` — from the proof
 * src/git/index-fingerprint.ts reads (`index:<size>:<hex of the last 32 bytes>`); null without one.
 */
export function shellIndexKey(checksum: string | null): string | null {
  const match = checksum === null ? null : /^index:(\d+):([0-9a-f]{64})$/.exec(checksum);
  return match ? `${match[1]} ${match[2]}` : null;
}
