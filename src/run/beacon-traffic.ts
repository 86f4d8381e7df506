import type { Beacon } from '../beacon/beacon-schema.js';
import { mergeBeaconIntoWorkingSet } from '../beacon/merge-beacon.js';
import { isAirspaceError } from '../errors.js';
import { isAncestor } from '../git/merge-base.js';
import type { GitStates, PairWorkingSets, UnknownPeer } from '../traffic/collect-airspace.js';
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
  /**
   * The commit holding the ownship's work (uncommitted included) and, per beacon, the commit holding
   * the peer's published work (the beacon commit's parent, see publishBeacon's `parent`): the two
   * states the git channels compare (src/channels/). Absent: the pairs keep the states they have.
   */
  readonly work?: { readonly cwd: string; readonly own: string; readonly of: (beacon: Beacon) => string | null };
  /** Tips of the peers seen as pushed branches (id → remote-tracking commit). */
  readonly branchTips?: ReadonlyMap<string, string>;
}

export interface BeaconFoldResult {
  readonly pairs: PairWorkingSets[];
  /** Beacons that stand for agents seen nowhere else. */
  readonly beaconOnly: Beacon[];
  /** Beacons merged into an agent already compared. */
  readonly merged: number;
  readonly unknown: UnknownPeer[];
}

/**
 * A peer seen both as a pushed branch and through its beacon: the peer's own machine merges its
 * current work (uncommitted included) with ours, so ours must merge with the newest work it
 * published — the beacon's parent when it contains the branch tip — not the older branch tip.
 * Otherwise the merge channel says 0 on one side and 1 on the other for the same two states. A
 * branch pushed after the beacon is the newer state and keeps its own.
 */
async function newestStates(input: BeaconFoldInput, pair: PairWorkingSets): Promise<GitStates | null> {
  const work = input.work;
  if (!work || input.ownshipId === null || !pair.states) return pair.states;
  const peer = pair.a === input.ownshipId ? pair.b : pair.b === input.ownshipId ? pair.a : null;
  const tip = peer === null ? undefined : input.branchTips?.get(peer);
  const beacon = peer === null ? undefined : input.beacons.find((b) => b.agent === peer);
  const published = beacon ? work.of(beacon) : null;
  if (tip === undefined || published === null) return pair.states;
  if (published !== tip && !(await isAncestor(work.cwd, tip, published))) return pair.states;
  return pair.a === input.ownshipId ? { a: work.own, b: published, fromBase: false } : { a: published, b: work.own, fromBase: false };
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
  const pairs = await Promise.all(
    input.pairs.map(async (pair) => {
      seen.add(pair.a);
      seen.add(pair.b);
      const states = await newestStates(input, pair);
      return { ...pair, workingSetA: withBeacon(pair.a, pair.workingSetA), workingSetB: withBeacon(pair.b, pair.workingSetB), states };
    }),
  );
  const beaconOnly: Beacon[] = [];
  const unknown: UnknownPeer[] = [];
  if (input.ownshipId === null) return { pairs, beaconOnly, merged, unknown };
  // Beacons share bases (the trunk's tip): our working set per base is computed once, not once per
  // beacon — a snapshot and a diff each time made every beacon-only peer cost several processes.
  const ownSets = new Map<string | null, Promise<WorkingSet>>();
  const ownshipWorkingSet = (base: string | null): Promise<WorkingSet> => {
    if (!ownSets.has(base)) ownSets.set(base, input.ownshipWorkingSet(base));
    return ownSets.get(base)!;
  };
  const present = new Map<string, Promise<boolean>>();
  const hasCommit = (sha: string): Promise<boolean> => {
    if (!present.has(sha)) present.set(sha, input.hasCommit(sha));
    return present.get(sha)!;
  };
  for (const beacon of input.beacons) {
    if (seen.has(beacon.agent) || beacon.agent === input.ownshipId) continue;
    try {
      const base = beacon.base !== null && (await hasCommit(beacon.base)) ? beacon.base : null;
      const own = await ownshipWorkingSet(base);
      const theirs = base !== null ? beacon.workingSet : mergeBeaconIntoWorkingSet({ base: null, files: [] }, beacon).workingSet;
      const published = input.work?.of(beacon) ?? null;
      const states = input.work && published !== null ? { a: input.work.own, b: published, fromBase: false } : null;
      pairs.push({ a: input.ownshipId, b: beacon.agent, base: base ?? own.base ?? '', workingSetA: own, workingSetB: theirs, states });
      beaconOnly.push(beacon);
    } catch (error) {
      if (!isAirspaceError(error)) throw error;
      unknown.push({ id: beacon.agent, with: input.ownshipId, reason: error.message });
    }
  }
  return { pairs, beaconOnly, merged, unknown };
}
