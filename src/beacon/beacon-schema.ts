/**
 * The beacon document (`beacon.json`): what one agent tells its peers through the remote. Version 1.
 * The valibot schema is the gate for untrusted input; `Beacon` is the type the rest of the code
 * sees. Unknown keys are dropped (a newer minor writer may add fields); an unknown `schema` number
 * is refused before this schema runs (see parse-beacon.ts).
 */
import * as v from 'valibot';
import type { FileStatus, WorkingSet } from '../traffic/working-set.js';
import { DEFAULT_BEACON_LIMITS, type BeaconLimits } from './beacon-limits.js';
import { CLONE_ID, MACHINE_NAME } from '../state/clone-identity.js';
import { isSafeLabel, repoPathProblem } from './safe-repo-path.js';

export const BEACON_SCHEMA_VERSION = 1;

export interface Beacon {
  readonly schema: 1;
  /** Agent id (a branch name, or an id derived from a worktree path). */
  readonly agent: string;
  readonly branch: string | null;
  /** Commit the agent's worktree is on. */
  readonly head: string;
  /** Base commit (merge-base with the trunk); equals `workingSet.base`. */
  readonly base: string | null;
  /** Committed and uncommitted work, in base coordinates (half-open ranges). */
  readonly workingSet: WorkingSet;
  /** Files declared as about to be touched. */
  readonly intent: readonly string[];
  /**
   * `[path, epoch ms]`: when an intent path declared with a time to live (`intent add --ttl`)
   * expires; a reader drops it from then on (liveIntent). Paths without an entry live until
   * cleared. Absent from older publishers, whose intents therefore read as live.
   */
  readonly intentExpiresAt?: readonly (readonly [string, number])[];
  /** Priority fact: pushed commits of work not in the trunk. */
  readonly committedWork: number;
  /**
   * Priority fact: every commit on the line since the trunk, pushed or not — checked against the
   * commits the beacon's ref carries (src/beacon/check-beacon-claims.ts). Absent from older publishers.
   */
  readonly provenWork?: number;
  /** Priority fact: epoch ms of the first commit of the line of work. */
  readonly startedAt: number | null;
  /** Epoch ms when the beacon was written; drives the TTL. */
  readonly updatedAt: number;
  readonly note?: string;
  /** Files left out to respect the limits (the beacon is then a lower bound of the work). */
  readonly truncatedFiles?: number;
  /**
   * The publishing clone (src/state/clone-identity.ts): its beacons live under its own refs, so
   * two machines on one branch are two agents. Absent in beacons of older publishers.
   */
  readonly clone?: BeaconClone;
  /**
   * Published by a pre-push that had not decided yet (its announce, src/run/recheck-after-announce.ts):
   * until the remote's branch carries `head`, that push may still land without having seen the
   * reader. Absent from every other publish and from older publishers.
   */
  readonly pushing?: true;
}

export interface BeaconClone {
  readonly id: string;
  readonly machine: string;
}

const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const STATUSES: readonly FileStatus[] = ['A', 'M', 'D', 'R', 'T', 'C', 'U', 'X'];
const ORIGINS = ['committed', 'uncommitted', 'beacon', 'intent'] as const;
const MAX_LINE = 100_000_000;
/** Epoch ms bounds that exclude garbage (negative, seconds instead of ms, year 10000). */
const MIN_TIME = Date.UTC(2000, 0, 1);
const MAX_TIME = Date.UTC(3000, 0, 1);

function buildSchema(limits: BeaconLimits) {
  const sha = v.pipe(v.string(), v.regex(SHA, 'not a commit sha'));
  const path = v.pipe(
    v.string(),
    v.check((p) => repoPathProblem(p, limits.maxPathLength) === null, 'unsafe path'),
  );
  const label = v.pipe(
    v.string(),
    v.check((s) => isSafeLabel(s, limits.maxIdLength), 'unsafe or too long label'),
  );
  const time = v.pipe(v.number(), v.integer(), v.minValue(MIN_TIME), v.maxValue(MAX_TIME));
  const line = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_LINE));
  const range = v.pipe(
    v.tuple([line, line]),
    v.check(([start, end]) => start <= end, 'range ends before it starts'),
  );
  const file = v.object({
    file: path,
    path: v.optional(path),
    status: v.picklist(STATUSES),
    ranges: v.optional(v.array(range)),
    whole: v.optional(v.boolean()),
    binary: v.optional(v.boolean()),
    lastEditTime: v.optional(v.nullable(time)),
    origin: v.optional(v.picklist(ORIGINS)),
  });
  return v.pipe(
    v.object({
      schema: v.literal(BEACON_SCHEMA_VERSION),
      agent: label,
      branch: v.nullable(label),
      head: sha,
      base: v.nullable(sha),
      workingSet: v.object({
        base: v.nullable(sha),
        files: v.pipe(v.array(file), v.maxLength(limits.maxFiles)),
      }),
      intent: v.pipe(v.array(path), v.maxLength(limits.maxIntent)),
      intentExpiresAt: v.optional(v.pipe(v.array(v.tuple([path, time])), v.maxLength(limits.maxIntent))),
      committedWork: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10_000_000)),
      provenWork: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10_000_000))),
      startedAt: v.nullable(time),
      updatedAt: time,
      note: v.optional(v.pipe(v.string(), v.maxLength(limits.maxNoteLength))),
      truncatedFiles: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
      clone: v.optional(
        v.object({
          id: v.pipe(v.string(), v.regex(CLONE_ID, 'not a clone id')),
          machine: v.pipe(v.string(), v.regex(MACHINE_NAME, 'not a machine name')),
        }),
      ),
      pushing: v.optional(v.literal(true)),
    }),
    v.check((b) => b.base === b.workingSet.base, 'base differs from workingSet.base'),
  );
}

const cache = new Map<BeaconLimits, ReturnType<typeof buildSchema>>();

export function beaconSchema(limits: BeaconLimits = DEFAULT_BEACON_LIMITS): ReturnType<typeof buildSchema> {
  let schema = cache.get(limits);
  if (!schema) {
    schema = buildSchema(limits);
    if (cache.size > 8) cache.clear();
    cache.set(limits, schema);
  }
  return schema;
}

export type BeaconCheck = { ok: true; beacon: Beacon } | { ok: false; issue: string };

/** Validates a parsed value; `issue` is a short technical description (untrusted path included). */
export function checkBeacon(value: unknown, limits: BeaconLimits = DEFAULT_BEACON_LIMITS): BeaconCheck {
  const result = v.safeParse(beaconSchema(limits), value);
  if (result.success) return { ok: true, beacon: result.output satisfies Beacon };
  const first = result.issues[0];
  const where = first ? v.getDotPath(first) : null;
  return { ok: false, issue: `${where ?? '(root)'}: ${first?.message ?? 'invalid'}` };
}

/** The beacon's intent paths that have not expired at `now`. */
export function liveIntent(beacon: Pick<Beacon, 'intent' | 'intentExpiresAt'>, now: number): readonly string[] {
  if (!beacon.intentExpiresAt || beacon.intentExpiresAt.length === 0) return beacon.intent;
  // A Map, not an object: a path may be named `__proto__`.
  const expiry = new Map(beacon.intentExpiresAt);
  return beacon.intent.filter((path) => (expiry.get(path) ?? Number.POSITIVE_INFINITY) > now);
}
