import * as v from 'valibot';
import type { ResidentEnvelope } from './resident-protocol.js';

/**
 * The resident checks what it is asked like any input from outside. Only the user can connect
 * (the socket is 0600 in a 0700 directory), but a question still names paths and carries an
 * environment: bounded sizes, known shapes, and the pipeline's own checks on what it then reads.
 */
const text = (max: number) => v.pipe(v.string(), v.maxLength(max));
const path = text(4096);
const env = v.pipe(
  v.record(text(1024), text(128 * 1024)),
  v.check((record) => Object.keys(record).length <= 4096, 'too many variables'),
);
const sha = v.pipe(v.string(), v.regex(/^[0-9a-f]{40,64}$/));
const pushed = v.strictObject({ localRef: text(1024), localSha: sha, remoteRef: text(1024), remoteSha: sha });
const run = { cwd: path, env };

const RequestSchema = v.variant('type', [
  v.strictObject({
    type: v.literal('hook'),
    hook: v.picklist(['pre-commit', 'pre-push']),
    remote: v.nullable(text(1024)),
    pushed: v.pipe(v.array(pushed), v.maxLength(10_000)),
    strict: v.boolean(),
    json: v.boolean(),
    elapsedMs: v.pipe(v.number(), v.minValue(0)),
    budgetMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(600_000))),
    tty: v.strictObject({ out: v.boolean(), err: v.boolean() }),
    ...run,
  }),
  v.strictObject({
    type: v.literal('check'),
    fetch: v.optional(v.boolean()),
    as: v.optional(v.picklist(['pre-commit', 'pre-push'])),
    json: v.boolean(),
    ...run,
  }),
  v.strictObject({ type: v.literal('edit'), file: v.nullable(path), ttlMs: v.pipe(v.number(), v.minValue(1)), ...run }),
  v.strictObject({ type: v.literal('intent-clear'), path, ...run }),
  v.strictObject({ type: v.literal('subscribe'), cwd: path }),
  v.strictObject({ type: v.literal('status') }),
  v.strictObject({ type: v.literal('stop') }),
]);

const EnvelopeSchema = v.strictObject({ protocol: v.number(), identity: text(256), request: RequestSchema });

/** Throws on anything that is not a question we know. */
export function parseEnvelope(value: unknown): ResidentEnvelope {
  return v.parse(EnvelopeSchema, value);
}
