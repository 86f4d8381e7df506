/**
 * One fetched beacon, from bytes to a trusted `Beacon` or a reason to skip it. Order matters:
 * the size was checked before the bytes were even read (read-beacons.ts), the schema version
 * before the schema, the schema before any field is used, and the declared agent id against the
 * ref it came from (a peer may only speak for its own ref name).
 */
import { beaconRefComponent } from './agent-ref.js';
import { DEFAULT_BEACON_LIMITS, DEFAULT_BEACON_TTL_MS, DEFAULT_FUTURE_SKEW_MS, type BeaconLimits } from './beacon-limits.js';
import { BEACON_SCHEMA_VERSION, checkBeacon, type Beacon } from './beacon-schema.js';
import { collapseFileRanges } from './fit-beacon.js';

export type BeaconSkipReason =
  | 'too-large'
  | 'not-a-beacon'
  | 'malformed-json'
  | 'unknown-version'
  | 'invalid'
  | 'id-mismatch'
  | 'expired'
  | 'future'
  | 'unreadable';

export interface ParseBeaconOptions {
  readonly limits?: BeaconLimits;
  readonly ttlMs?: number;
  /** Epoch ms; the caller's clock (the library reads no clock). */
  readonly now: number;
  readonly futureSkewMs?: number;
}

export type ParsedBeacon = { ok: true; beacon: Beacon } | { ok: false; reason: BeaconSkipReason; detail?: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** `refComponent` is the part of the ref name after `…/beacons/`: `<clone>/<agent>`, or `<agent>` for an older publisher. */
export function parseBeacon(bytes: Uint8Array, refComponent: string, options: ParseBeaconOptions): ParsedBeacon {
  const limits = options.limits ?? DEFAULT_BEACON_LIMITS;
  if (bytes.length > limits.maxBytes) return { ok: false, reason: 'too-large', detail: String(bytes.length) };
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(bytes));
  } catch (error) {
    return { ok: false, reason: 'malformed-json', detail: error instanceof Error ? error.message.slice(0, 120) : undefined };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'invalid', detail: '(root): not an object' };
  const version = (value as { schema?: unknown }).schema;
  if (typeof version === 'number' && version !== BEACON_SCHEMA_VERSION) {
    return { ok: false, reason: 'unknown-version', detail: String(version).slice(0, 20) };
  }
  const checked = checkBeacon(value, limits);
  if (!checked.ok) return { ok: false, reason: 'invalid', detail: checked.issue.slice(0, 200) };
  const beacon = checked.beacon;
  // A publisher speaks only for its own clone's ref of its own agent (a beacon of an older publisher has no clone).
  if (beaconRefComponent(beacon.agent, beacon.clone?.id) !== refComponent) return { ok: false, reason: 'id-mismatch' };
  const ttl = options.ttlMs ?? DEFAULT_BEACON_TTL_MS;
  if (beacon.updatedAt < options.now - ttl) return { ok: false, reason: 'expired', detail: String(beacon.updatedAt) };
  if (beacon.updatedAt > options.now + (options.futureSkewMs ?? DEFAULT_FUTURE_SKEW_MS)) {
    return { ok: false, reason: 'future', detail: String(beacon.updatedAt) };
  }
  const files = beacon.workingSet.files.map((f) => collapseFileRanges(f, limits.maxRangesPerFile));
  return { ok: true, beacon: { ...beacon, workingSet: { base: beacon.workingSet.base, files } } };
}
