/**
 * Which remote refs this clone published for each of its agents (`<common-dir>/airspace/
 * published-beacons.json`). A selective reader lists only its own areas, so the remote never tells a
 * publisher where its beacon still stands in an area it left: this record does. The next publish
 * deletes the refs of areas left, a withdrawal or `beacon clear` deletes all of them. Lost or corrupt
 * (another machine, a deleted git dir), a left area's ref stays until its beacon expires (TTL) or
 * the agent's newer beacon, read under another ref, replaces it for every reader (read-beacons.ts).
 */
import { join } from 'node:path';
import { readJsonFile, updateJsonFile } from '../state/json-file.js';
import { AREA_REF_PREFIX, MAX_AREAS } from './beacon-areas.js';
import { BEACON_REF_PREFIX } from './agent-ref.js';

const MAX_FILE_BYTES = 1024 * 1024;
const MAX_AGENTS = 200;
const REF = /^refs\/airspace\/(?:beacons|areas)\/[A-Za-z0-9_%/-]+$/;

export type PublishedRefs = Readonly<Record<string, readonly string[]>>;

const file = (commonDir: string): string => join(commonDir, 'airspace', 'published-beacons.json');

function parse(value: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const [component, refs] of Object.entries(value)) {
    if (!Array.isArray(refs)) continue;
    out[component] = refs.filter((ref): ref is string => typeof ref === 'string' && REF.test(ref) && !ref.includes('..')).slice(0, MAX_AREAS + 2);
  }
  return out;
}

export async function readPublishedRefs(commonDir: string): Promise<PublishedRefs> {
  return parse(await readJsonFile(file(commonDir), MAX_FILE_BYTES));
}

/** Records `refs` as what stands on the remote for `component` (`<clone>/<agent>`); an empty list forgets it. */
export async function recordPublishedRefs(commonDir: string, component: string, refs: readonly string[]): Promise<void> {
  await updateJsonFile(file(commonDir), MAX_FILE_BYTES, (current) => {
    const all = parse(current);
    delete all[component];
    if (refs.length > 0) all[component] = [...refs];
    // Newest last: the oldest agents' records go first when there are too many.
    const entries = Object.entries(all);
    return Object.fromEntries(entries.slice(Math.max(0, entries.length - MAX_AGENTS)));
  });
}

/** Whether a ref is one a beacon of ours can stand under on the remote. */
export function isPublishedBeaconRef(ref: string): boolean {
  return (ref.startsWith(BEACON_REF_PREFIX) || ref.startsWith(AREA_REF_PREFIX)) && REF.test(ref) && !ref.includes('..');
}
