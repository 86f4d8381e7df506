/**
 * The answers of `git cat-file --batch-command` (git >= 2.36), read as they stream in. Each
 * command gets one header line: `<oid> <type> <size>` for an object found, anything else
 * (`<name> missing`, `<name> ambiguous`) for none. A found `contents` is followed by exactly `size`
 * bytes and a newline: the header is parsed and that many bytes taken, so content holding newlines
 * or NULs cannot shift the answers after it.
 */

export type ObjectCommand = 'info' | 'contents';

export interface ObjectInfo {
  readonly sha: string;
  readonly type: string;
  readonly size: number;
}

export interface ObjectContents extends ObjectInfo {
  readonly content: Buffer;
}

export type ObjectAnswer = ObjectInfo | ObjectContents | null;

const HEADER = /^([0-9a-f]{40}|[0-9a-f]{64}) ([a-z]+) (\d+)$/;

/** `<oid> <type> <size>`; null for `missing`, `ambiguous` or anything unexpected. */
export function parseObjectHeader(line: string): ObjectInfo | null {
  const match = HEADER.exec(line);
  return match ? { sha: match[1]!, type: match[2]!, size: Number(match[3]) } : null;
}

/**
 * One command's answer is being read. `keep(info)` decides, from the header, whether a content's
 * bytes are kept (false: skipped without being held, e.g. over the caller's cap).
 */
export interface AnswerSink {
  /** The command the next header answers; undefined when nothing was asked (output is then a protocol error). */
  next(): ObjectCommand | undefined;
  keep(info: ObjectInfo): boolean;
  answer(result: ObjectAnswer): void;
}

const EMPTY = Buffer.alloc(0);

/** Feeds stdout chunks in; calls the sink once per answered command, in order. */
export class BatchCommandReader {
  private carry: Buffer = EMPTY;
  private body: { info: ObjectInfo; need: number; parts: Buffer[] | null } | null = null;

  constructor(private readonly sink: AnswerSink) {}

  /** False when git printed something no command asked for (the stream cannot be trusted). */
  push(chunk: Buffer): boolean {
    const data = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = EMPTY;
    let offset = 0;
    while (offset < data.length) {
      const body = this.body;
      if (body !== null) {
        const take = Math.min(body.need, data.length - offset);
        body.parts?.push(data.subarray(offset, offset + take));
        body.need -= take;
        offset += take;
        if (body.need > 0) break;
        this.body = null;
        // `need` counted the newline after the content; it is not part of it.
        const content = body.parts ? Buffer.concat(body.parts).subarray(0, body.info.size) : null;
        this.sink.answer(content ? { ...body.info, content } : body.info);
        continue;
      }
      const newline = data.indexOf(0x0a, offset);
      if (newline < 0) {
        // A partial header line: copied, so the rest of a large chunk is not held with it.
        this.carry = Buffer.from(data.subarray(offset));
        break;
      }
      const line = data.toString('utf8', offset, newline);
      offset = newline + 1;
      const command = this.sink.next();
      if (command === undefined) return false;
      const info = parseObjectHeader(line);
      if (command === 'contents' && info !== null) this.body = { info, need: info.size + 1, parts: this.sink.keep(info) ? [] : null };
      else this.sink.answer(info);
    }
    return true;
  }
}
