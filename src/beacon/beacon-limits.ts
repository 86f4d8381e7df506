/** Bounds on a beacon, for what we publish and for what we accept from peers. */
export interface BeaconLimits {
  /** Serialized size of `beacon.json`. Checked on the blob size before anything is parsed. */
  readonly maxBytes: number;
  readonly maxFiles: number;
  /** Beyond this, a file's ranges collapse to one span `[min start, max end)` (as the dataset does). */
  readonly maxRangesPerFile: number;
  readonly maxIdLength: number;
  readonly maxPathLength: number;
  readonly maxNoteLength: number;
  readonly maxIntent: number;
}

export const DEFAULT_BEACON_LIMITS: BeaconLimits = {
  maxBytes: 256 * 1024,
  maxFiles: 2000,
  maxRangesPerFile: 500,
  maxIdLength: 256,
  maxPathLength: 4096,
  maxNoteLength: 2000,
  maxIntent: 500,
};

/**
 * Beacons read per run, the newest first. Each beacon-only peer costs a few git processes (its
 * working set against ours, the merge channel); a team has a handful of agents, a flood thousands.
 */
export const DEFAULT_MAX_BEACONS = 50;

/** Default time to live: a beacon not refreshed for this long describes work that may be gone. */
export const DEFAULT_BEACON_TTL_MS = 24 * 60 * 60 * 1000;
/** Clock skew tolerated for beacons dated in the future (other machines' clocks drift). */
export const DEFAULT_FUTURE_SKEW_MS = 10 * 60 * 1000;

export function beaconLimits(overrides: Partial<BeaconLimits> = {}): BeaconLimits {
  return { ...DEFAULT_BEACON_LIMITS, ...overrides };
}

/**
 * Beacons read under this agent's own areas (src/beacon/beacon-areas.ts): every one that can
 * collide, whatever their number; this bound holds only against a flood inside one area (a real
 * area of a team holds tens). Above it, those touching this agent's files are kept first.
 */
export const DEFAULT_MAX_AREA_BEACONS = 500;

/** `beacon.json` bytes read per run to choose the beacons kept (a real beacon is a few KiB). */
export const DEFAULT_BEACON_READ_BYTES = 16 * 1024 * 1024;
