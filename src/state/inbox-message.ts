/**
 * The message one agent leaves in a peer's inbox on a Traffic or Resolution Advisory (the seed's
 * "transmit intent"): what the sender is touching, its commit subjects, its declared intent and
 * note. Bounded on the way in, validated on the way out (a sibling worktree wrote the file).
 */
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { pairKey } from '../engine/closure-rate.js';
import { isSafeLabel, isSafeRepoPath } from '../beacon/safe-repo-path.js';

export interface InboxMessage {
  readonly from: string;
  readonly to: string;
  readonly level: 'TA' | 'RA';
  readonly risk: number;
  readonly files: readonly { readonly path: string; readonly ranges: readonly (readonly [number, number])[] }[];
  readonly subjects: readonly string[];
  readonly intent: readonly string[];
  readonly note?: string;
  /** Epoch ms when the advisory was computed. */
  readonly at: number;
}

export const MESSAGE_BOUNDS = { files: 100, rangesPerFile: 50, subjects: 20, subjectLength: 300, intent: 100, noteLength: 2000, idLength: 256 };

const B = MESSAGE_BOUNDS;
const label = v.pipe(
  v.string(),
  v.check((s) => isSafeLabel(s, B.idLength)),
);
const path = v.pipe(
  v.string(),
  v.check((p) => isSafeRepoPath(p)),
);
const line = v.pipe(v.number(), v.integer(), v.minValue(0));

export const inboxMessageSchema = v.object({
  from: label,
  to: label,
  level: v.picklist(['TA', 'RA']),
  risk: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
  files: v.pipe(v.array(v.object({ path, ranges: v.pipe(v.array(v.tuple([line, line])), v.maxLength(B.rangesPerFile)) })), v.maxLength(B.files)),
  subjects: v.pipe(v.array(v.pipe(v.string(), v.maxLength(B.subjectLength))), v.maxLength(B.subjects)),
  intent: v.pipe(v.array(path), v.maxLength(B.intent)),
  note: v.optional(v.pipe(v.string(), v.maxLength(B.noteLength))),
  at: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

/** Cuts a message to the bounds (the sender's own data can be large; the inbox stays small). */
export function boundMessage(message: InboxMessage): InboxMessage {
  const cut = (s: string, n: number): string => Array.from(s).slice(0, n).join('');
  return {
    from: message.from,
    to: message.to,
    level: message.level,
    risk: Math.min(1, Math.max(0, Number.isFinite(message.risk) ? message.risk : 0)),
    files: message.files.slice(0, B.files).map((f) => ({ path: f.path, ranges: f.ranges.slice(0, B.rangesPerFile).map(([s, e]) => [s, e] as const) })),
    subjects: message.subjects.slice(0, B.subjects).map((s) => cut(s, B.subjectLength)),
    intent: message.intent.slice(0, B.intent),
    ...(message.note !== undefined ? { note: cut(message.note, B.noteLength) } : {}),
    at: Math.floor(message.at),
  };
}

export function isValidMessage(value: unknown): value is InboxMessage {
  return v.safeParse(inboxMessageSchema, value).success;
}

/**
 * De-duplication key: (from, pair, level, content). Risk and time are left out on purpose — they
 * change on every scan, and a message that says the same thing again is noise.
 */
export function messageKey(message: InboxMessage): string {
  const content = JSON.stringify([message.files, message.subjects, message.intent, message.note ?? null]);
  return createHash('sha256')
    .update(JSON.stringify([message.from, pairKey(message.from, message.to), message.level, content]))
    .digest('hex')
    .slice(0, 32);
}
