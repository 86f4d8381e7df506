import type { Beacon } from '../beacon/beacon-schema.js';
import { mergeBeaconIntoWorkingSet } from '../beacon/merge-beacon.js';
import { isAirspaceError } from '../errors.js';
import type { MergeChannelResult } from '../git/merge-tree-channel.js';
import type { PairWorkingSets, UnknownPeer } from '../traffic/collect-airspace.js';
import type { WorkingSet } from '../traffic/working-set.js';

/**
 * Folds the peers' beacons into the compared pairs. A beacon of a peer we already compare (its
 * branch is visible) adds its uncommitted work to that side (merged per file, never counted
 * twice); a beacon of a peer we cannot see any other way (nothing pushed yet) becomes an agent of
 * its own, compared with the ownship in the beacon's base coordinates when that base commit is
 * here, else with the beacon's files as whole-file entries (coarse, never a silent miss).
 */
export interface BeaconFoldInput {
  readonly beacons: readonly Beacon[];
  readonly pairs: readonly PairWorkingSets[];
  readonly ownshipId: string | null;
  /** The ownship's working set in `base` coordinates; `null` base = against its trunk merge-base. */
  readonly ownshipWorkingSet: (base: string | null) => Promise<WorkingSet>;
  readonly hasCommit: (sha: string) => Promise<boolean>;
  /** The exact merge channel against a beacon-only peer's published work, when it came along. */
  readonly mergeWith?: (beacon: Beacon) => Promise<MergeChannelResult | undefined>;
}

export interface BeaconFoldResult {
  readonly pairs: PairWorkingSets[];
  /** Beacons that stand for agents seen nowhere else. */
  readonly beaconOnly: Beacon[];
  /** Beacons merged into an agent already compared. */
  readonly merged: number;
  readonly unknown: UnknownPeer[];
}

export async function foldBeacons(input: BeaconFoldInput): Promise<BeaconFoldResult> {
  const byAgent = new Map(input.beacons.map((b) => [b.agent, b]));
  const seen = new Set<string>();
  let merged = 0;
  const withBeacon = (id: string, set: WorkingSet): WorkingSet => {
    const beacon = id === input.ownshipId ? undefined : byAgent.get(id);
    if (!beacon) return set;
    merged++;
    return mergeBeaconIntoWorkingSet(set, beacon).workingSet;
  };
  const pairs = input.pairs.map((pair) => {
    seen.add(pair.a);
    seen.add(pair.b);
    return { ...pair, workingSetA: withBeacon(pair.a, pair.workingSetA), workingSetB: withBeacon(pair.b, pair.workingSetB) };
  });
  const beaconOnly: Beacon[] = [];
  const unknown: UnknownPeer[] = [];
  if (input.ownshipId === null) return { pairs, beaconOnly, merged, unknown };
  for (const beacon of input.beacons) {
    if (seen.has(beacon.agent) || beacon.agent === input.ownshipId) continue;
    try {
      const base = beacon.base !== null && (await input.hasCommit(beacon.base)) ? beacon.base : null;
      const own = await input.ownshipWorkingSet(base);
      const theirs = base !== null ? beacon.workingSet : mergeBeaconIntoWorkingSet({ base: null, files: [] }, beacon).workingSet;
      const merge = await input.mergeWith?.(beacon);
      pairs.push({ a: input.ownshipId, b: beacon.agent, base: base ?? own.base ?? '', workingSetA: own, workingSetB: theirs, ...(merge ? { merge } : {}) });
      beaconOnly.push(beacon);
    } catch (error) {
      if (!isAirspaceError(error)) throw error;
      unknown.push({ id: beacon.agent, with: input.ownshipId, reason: error.message });
    }
  }
  return { pairs, beaconOnly, merged, unknown };
}
