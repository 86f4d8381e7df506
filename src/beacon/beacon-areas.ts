/**
 * Beacons addressed by where they work (issue 27, docs/decisions/beacon-areas.md). Every beacon is
 * also published under each code area its working set and intent touch,
 * `refs/airspace/areas/<area>/<clone>/<agent>`, so a reader lists and fetches only the areas of its
 * own work (one git protocol v2 `ref-prefix` per area) instead of every beacon on the remote.
 *
 * An area is the file's directory cut to its first AREA_DEPTH segments (`src/engine/x.ts` →
 * `src/engine`, `packages/ui/src/a.ts` → `packages/ui`, `README.md` → `.`): two levels separate the
 * parts of a repository (packages, layers) without shrinking to one folder of a few files. Both
 * machines compute it from the path alone, so they always agree. The ref holds a short hash of the
 * name, not the name: a fixed-length, always valid ref component (no encoding, no file/directory
 * clash between `src` and `src/engine`), and a hash collision only makes a reader read more.
 */
import { createHash } from 'node:crypto';
import { LOCAL_AREA_PREFIX, remoteAreaRef } from '../git/fetched-area-refs.js';
import type { Beacon } from './beacon-schema.js';

export const AREA_DEPTH = 2;
export const AREA_REF_PREFIX = 'refs/airspace/areas/';
/** Where the tool's fetch keeps the areas it read, one directory per area (src/git/fetched-area-refs.ts). */
export const FETCHED_AREA_PREFIX = LOCAL_AREA_PREFIX;
/**
 * At most this many areas per beacon. A wider beacon is published under WIDE_AREA alone (which every
 * reader lists), so no agent needs hundreds of refs and none is unseen for being wide.
 */
export const MAX_AREAS = 64;
/** The area of a beacon too wide for MAX_AREAS: every selective reader lists it too. */
export const WIDE_AREA = '*';

/** The code area of a repository path (POSIX, repo-relative: the beacon schema checks that). */
export function areaOf(path: string): string {
  const segments = path.split('/').slice(0, -1);
  return segments.length === 0 ? '.' : segments.slice(0, AREA_DEPTH).join('/');
}

/** The ref component for an area: 12 hex characters of SHA-256 (48 bits: no collision among 10⁵ areas in practice). */
export function areaKey(area: string): string {
  return createHash('sha256').update(`airspace-area-v1\0${area}`, 'utf8').digest('hex').slice(0, 12);
}

/** The areas of a set of paths, sorted; WIDE_AREA alone when they are more than MAX_AREAS. */
export function areasOf(paths: Iterable<string>): string[] {
  const areas = new Set<string>();
  for (const path of paths) areas.add(areaOf(path));
  if (areas.size > MAX_AREAS) return [WIDE_AREA];
  return [...areas].sort();
}

/** Every path a beacon speaks for: both sides of a rename, and its intent. */
export function beaconPaths(beacon: Pick<Beacon, 'workingSet' | 'intent'>): string[] {
  return [...beacon.workingSet.files.flatMap((f) => (f.path !== undefined ? [f.file, f.path] : [f.file])), ...beacon.intent];
}

/** The remote refs a beacon is published under (besides the legacy `refs/airspace/beacons/…` one). */
export function areaRefs(beacon: Pick<Beacon, 'workingSet' | 'intent'>, component: string): string[] {
  return areasOf(beaconPaths(beacon)).map((area) => `${AREA_REF_PREFIX}${areaKey(area)}/${component}`);
}

/**
 * The remote ref prefixes a reader whose work touches `paths` lists (each ends with `/`): its areas
 * and the wide one. Null when the work spans more than MAX_AREAS areas: then everything is listed.
 */
export function areaPrefixes(paths: Iterable<string>): string[] | null {
  const areas = areasOf(paths);
  return areas.includes(WIDE_AREA) ? null : prefixesOf(areas);
}

/** The remote ref prefixes of these areas (each ends with `/`), the wide one added. */
export function prefixesOf(areas: Iterable<string>): string[] {
  return [...new Set([...areas, WIDE_AREA])].map((area) => `${AREA_REF_PREFIX}${areaKey(area)}/`);
}

/**
 * An area ref → `<clone>/<agent>`; null for any other ref. A fetched one (the default prefix) in either
 * local layout, `…/<key>/<clone>.<agent>` or an older release's `…/<key>/<clone>/<agent>`.
 */
export function componentOfAreaRef(ref: string, prefix: string = FETCHED_AREA_PREFIX): string | null {
  const remote = prefix === FETCHED_AREA_PREFIX ? remoteAreaRef(ref) : ref.startsWith(prefix) ? ref : null;
  if (remote === null) return null;
  const rest = remote.slice(prefix === FETCHED_AREA_PREFIX ? AREA_REF_PREFIX.length : prefix.length);
  const slash = rest.indexOf('/');
  return /^[0-9a-f]{12}$/.test(rest.slice(0, slash)) ? rest.slice(slash + 1) : null;
}
