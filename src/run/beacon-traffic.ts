import type { Beacon } from '../beacon/beacon-schema.js';
import { mergeBeaconIntoWorkingSet } from '../beacon/merge-beacon.js';
import { isAirspaceError } from '../errors.js';
import { isAncestor, mergeBase } from '../git/merge-base.js';
import { mergeTreeChannel, type MergeChannelResult } from '../git/merge-tree-channel.js';
import { currentRunSignal, withRunSignal } from '../git/run-scope.js';
import { symbolMessages } from '../messages/symbols.js';
import { symbolChannel, type SymbolChannelResult } from '../symbols/symbol-channel.js';
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
  /**
   * The channels computed on a peer's published work (the beacon commit's parent), when it came
   * along: the exact merge channel and the symbol channel. With `branchTip`, only when that work is
   * at least as new as the pushed branch (undefined otherwise: the branch is newer and its own
   * channels stand).
   */
  readonly workChannels?: (beacon: Beacon, branchTip?: string) => Promise<WorkChannels | undefined>;
  /** Tips of the peers seen as pushed branches (id → remote-tracking commit). */
  readonly branchTips?: ReadonlyMap<string, string>;
}

/** What a peer's published work says about the pair, beyond its beacon's file list. */
export interface WorkChannels {
  readonly merge?: MergeChannelResult;
  readonly symbol?: SymbolChannelResult;
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
 * published — the beacon's parent when it is at least as new as the branch — not the older branch
 * tip. Otherwise the merge channel says 0 on one side and 1 on the other for the same two states.
 */
async function newestWork(input: BeaconFoldInput, pair: PairWorkingSets): Promise<WorkChannels> {
  if (!input.workChannels || input.ownshipId === null || (!pair.merge && !pair.symbol)) return {};
  const peer = pair.a === input.ownshipId ? pair.b : pair.b === input.ownshipId ? pair.a : null;
  const tip = peer === null ? undefined : input.branchTips?.get(peer);
  const beacon = peer === null ? undefined : input.beacons.find((b) => b.agent === peer);
  if (tip === undefined || beacon === undefined) return {};
  const found = await input.workChannels(beacon, tip);
  // Only the channels the pair already had are replaced: a pair without a base has neither.
  return {
    ...(pair.merge && found?.merge ? { merge: found.merge } : {}),
    ...(pair.symbol && found?.symbol ? { symbol: found.symbol } : {}),
  };
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
      const merged = { ...pair, workingSetA: withBeacon(pair.a, pair.workingSetA), workingSetB: withBeacon(pair.b, pair.workingSetB) };
      return { ...merged, ...(await newestWork(input, pair)) };
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
      const work = await input.workChannels?.(beacon);
      pairs.push({ a: input.ownshipId, b: beacon.agent, base: base ?? own.base ?? '', workingSetA: own, workingSetB: theirs, ...work });
      beaconOnly.push(beacon);
    } catch (error) {
      if (!isAirspaceError(error)) throw error;
      unknown.push({ id: beacon.agent, with: input.ownshipId, reason: error.message });
    }
  }
  return { pairs, beaconOnly, merged, unknown };
}

export interface WorkChannelOptions {
  readonly merge: boolean;
  /** The symbol channel's options (ids: ownship and peer), or null when the channel is off. */
  readonly symbol: {
    readonly ownId: string;
    readonly ignore: (path: string) => boolean;
    /**
     * Ends the symbol channel alone (its share of the budget, see symbolShare): the channel is then
     * unknown with the reason and the pair keeps its other channels. Must include the run's signal.
     */
    readonly signal?: AbortSignal;
  } | null;
}

/**
 * The symbol channel's share of what is left of the run's budget: parsing a peer's large changed
 * files on a loaded machine can take seconds (docs/decisions/symbol-channel.md, "Beacons"), and a
 * run cut there lost the whole peer — its overlap and merge channels too — not only its symbols.
 * A quarter of the budget (at most 1 s) stays for scoring, the report and the beacon publish.
 */
export function symbolShare(budget: { readonly signal: AbortSignal; readonly budgetMs: number | null; remaining(): number }): AbortSignal {
  if (budget.budgetMs === null) return budget.signal;
  const reserve = Math.min(1000, budget.budgetMs / 4);
  return AbortSignal.any([budget.signal, AbortSignal.timeout(Math.max(0, Math.floor(budget.remaining() - reserve)))]);
}

/**
 * The merge and symbol channels between our work and a peer's published work: the beacon commit's
 * parent (see publishBeacon's `parent`; readBeacons reports it). With `branchTip` (the peer's
 * pushed branch), only when that work contains the branch tip — the beacon is the newer state; a
 * branch pushed after the beacon is newer and keeps its own channels. The symbol channel diffs both
 * commits from their merge-base itself: the beacon's file list is the peer's claim, its commit is
 * what git holds.
 */
export async function beaconWorkChannels(
  cwd: string,
  own: string,
  beacon: Beacon,
  work: string | null,
  branchTip: string | undefined,
  options: WorkChannelOptions,
): Promise<WorkChannels | undefined> {
  if (work === null || (!options.merge && !options.symbol)) return undefined;
  if (branchTip !== undefined && work !== branchTip && !(await isAncestor(cwd, branchTip, work))) return undefined;
  const [merge, symbol] = await Promise.all([
    options.merge ? mergeTreeChannel(cwd, own, work) : undefined,
    options.symbol ? workSymbols(cwd, own, beacon.agent, work, options.symbol) : undefined,
  ]);
  return { ...(merge ? { merge } : {}), ...(symbol ? { symbol } : {}) };
}

async function workSymbols(
  cwd: string,
  own: string,
  peer: string,
  work: string,
  options: NonNullable<WorkChannelOptions['symbol']>,
): Promise<SymbolChannelResult> {
  const run = currentRunSignal();
  const cut: SymbolChannelResult = { value: null, collisions: [], reason: symbolMessages.cut };
  const share = options.signal;
  try {
    share?.throwIfAborted();
    const found = share ? await withRunSignal(share, () => mergeBase(cwd, own, work)) : await mergeBase(cwd, own, work);
    if (found.base === null) return { value: null, collisions: [], reason: found.reason };
    return await symbolChannel(cwd, found.base, own, work, { ids: { a: options.ownId, b: peer }, ignore: options.ignore, ...(share ? { signal: share } : {}) });
  } catch (error) {
    // Only the channel's own share ran out: the run goes on, the pair keeps its other channels.
    if (share?.aborted && !run?.aborted) return cut;
    throw error;
  }
}
