/**
 * Agent id ⇄ ref name. Ids are branch names (`feature/x`) or ids derived from worktree paths, so
 * they may contain slashes, dots, `@`, spaces or anything else. Each id becomes ONE ref component
 * under `refs/airspace/beacons/`:
 * - one component, not a path, so agents `feature` and `feature/x` never collide on git's
 *   file/directory rule for loose refs (a ref cannot be both a file and a directory);
 * - every byte outside `[A-Za-z0-9_-]` is percent-encoded (UTF-8), which rules out everything
 *   `git check-ref-format` forbids (`..`, a leading `.`, a `.lock` suffix, `@{`, control
 *   characters, `~^:?*[\` and spaces) because `.`, `@` and all of those are encoded;
 * - long ids are cut and suffixed with a hash, because a loose ref is a file and file names stop
 *   at 255 bytes on most file systems.
 * The reader does not decode: it re-encodes the beacon's declared id and compares (see
 * read-beacons.ts), so the hashed form needs no inverse.
 * Limitation: on a case-insensitive file system (macOS, Windows) ids differing only in case share a
 * loose ref file; git itself has the same limitation with branch names.
 */
import { createHash } from 'node:crypto';

export const BEACON_REF_PREFIX = 'refs/airspace/beacons/';
/** Where the coordinator's fetch `+refs/airspace/*:refs/airspace/remote/*` puts peers' beacons. */
export const FETCHED_BEACON_PREFIX = 'refs/airspace/remote/beacons/';

/**
 * The fetch refspec that brings peers' beacons in (`git fetch --prune <remote> <refspec>`: with
 * `--prune`, beacons cleared on the remote disappear locally too).
 */

const MAX_COMPONENT = 180;

export function encodeAgentId(id: string): string {
  let out = '';
  for (const byte of Buffer.from(id, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9_-]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (out.length <= MAX_COMPONENT) return out;
  let head = out.slice(0, 150);
  // Never cut an escape in half: drop a trailing `%` or `%X`.
  head = head.replace(/%[0-9A-F]?$/, '');
  const hash = createHash('sha256').update(id, 'utf8').digest('hex').slice(0, 24);
  // Lower-case `%7e` never comes out of the encoder above, so a hashed form cannot pose as a plain id.
  return `${head}%7e${hash}`;
}

/** The decoded id for display in `beacon list`, or null when the component is a hashed long form. */
export function decodeAgentRefComponent(refComponent: string): string | null {
  const slash = refComponent.indexOf('/');
  // `<clone>/<agent>`: anything else with a slash is a name we did not write.
  if (slash >= 0 && !/^[0-9a-f]{10}$/.test(refComponent.slice(0, slash))) return null;
  const component = refComponent.slice(slash + 1);
  if (!/^(?:[A-Za-z0-9_-]|%[0-9A-F]{2})+$/.test(component)) return null;
  if (component.length > MAX_COMPONENT) return null;
  try {
    const decoded = decodeURIComponent(component);
    return encodeAgentId(decoded) === component ? decoded : null;
  } catch {
    return null;
  }
}

/**
 * The part of a beacon's ref after `…/beacons/`: `<clone>/<agent>` — every clone publishes under
 * its own id (src/state/clone-identity.ts), so two machines on one branch never overwrite each
 * other — or `<agent>` alone for a publisher without a clone id (older releases; still read).
 */
export function beaconRefComponent(id: string, cloneId?: string): string {
  return cloneId !== undefined ? `${cloneId}/${encodeAgentId(id)}` : encodeAgentId(id);
}

export function beaconRef(id: string, cloneId?: string): string {
  return BEACON_REF_PREFIX + beaconRefComponent(id, cloneId);
}

/** The clone a beacon ref component names (null: an older publisher's one-component ref). */
export function cloneOfComponent(component: string): string | null {
  const slash = component.indexOf('/');
  return slash < 0 ? null : component.slice(0, slash);
}
