/**
 * The local names of the fetched area beacons (docs/decisions/beacon-areas.md, "The busiest pusher"):
 * the remote's `refs/airspace/areas/<key>/<clone>/<agent>` is kept here as
 * `refs/airspace/remote/areas/<key>/<clone>.<agent>`, one loose-ref directory per area instead of
 * one per clone. A cold read of 594 beacons wrote 594 new directories: one `update-ref --stdin` of
 * them took 1.25–2.15 s on the bench's machine, the same refs without the per-ref directory 0.20 s.
 * The `.` is unambiguous: a clone id is 10 hex digits, and an agent's ref component never holds a `.`
 * (src/beacon/agent-ref.ts encodes it). An older publisher's `<key>/<agent>` keeps its name.
 * A release before this one kept the remote's names (`…/<key>/<clone>/<agent>`): those are still read,
 * and the next fetch replaces them.
 */
export const REMOTE_AREA_PREFIX = 'refs/airspace/areas/';
export const LOCAL_AREA_PREFIX = 'refs/airspace/remote/areas/';

// What a beacon publisher writes after the area key: `<clone>/<agent>` or an older `<agent>`.
const REMOTE_TAIL = /^([0-9a-f]{12})\/(?:([0-9a-f]{10})\/)?([A-Za-z0-9_%-]{1,200})$/;
// Both local layouts: `<clone>.<agent>` (this release), `<clone>/<agent>` (before), `<agent>`.
const LOCAL_TAIL = /^([0-9a-f]{12})\/(?:([0-9a-f]{10})[./])?([A-Za-z0-9_%-]{1,200})$/;

/** `refs/airspace/areas/<key>/<clone>/<agent>` → its local name; null for a name no publisher writes. */
export function localAreaRef(remoteRef: string): string | null {
  const parts = remoteRef.startsWith(REMOTE_AREA_PREFIX) ? REMOTE_TAIL.exec(remoteRef.slice(REMOTE_AREA_PREFIX.length)) : null;
  if (!parts) return null;
  const [, key, clone, agent] = parts;
  return `${LOCAL_AREA_PREFIX}${key}/${clone !== undefined ? `${clone}.` : ''}${agent}`;
}

/** A local area ref (either layout) → the remote ref it copies; null for any other ref. */
export function remoteAreaRef(localRef: string): string | null {
  const parts = localRef.startsWith(LOCAL_AREA_PREFIX) ? LOCAL_TAIL.exec(localRef.slice(LOCAL_AREA_PREFIX.length)) : null;
  if (!parts) return null;
  const [, key, clone, agent] = parts;
  return `${REMOTE_AREA_PREFIX}${key}/${clone !== undefined ? `${clone}/` : ''}${agent}`;
}

/** The local names a remote area ref may stand under here: this release's, then the older layout's. */
export function localAreaRefs(remoteRef: string): string[] {
  const flat = localAreaRef(remoteRef);
  if (flat === null) return [];
  const old = `${LOCAL_AREA_PREFIX}${remoteRef.slice(REMOTE_AREA_PREFIX.length)}`;
  return old === flat ? [flat] : [flat, old];
}
