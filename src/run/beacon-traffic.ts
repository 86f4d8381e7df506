import type { Beacon } from '../beacon/beacon-schema.js';
import { mergeBeaconIntoWorkingSet } from '../beacon/merge-beacon.js';
import { isAirspaceError } from '../errors.js';
import { isAncestor } from '../git/merge-base.js';
import { diffKey, diffWorkingSets } from '../git/diff-working-set.js';
import { sameContent } from '../git/same-content.js';
import { sharedResultPaths, withoutSameResults } from '../traffic/identical-edits.js';
import { mapLimit } from '../traffic/limit-concurrency.js';
import type { GitStates, PairWorkingSets, UnknownPeer } from '../traffic/collect-airspace.js';
import { targetOf, type LineOfWork } from '../traffic/line-of-work.js';
import type { WorkingSet, WorkingSetFile } from '../traffic/working-set.js';

/**
 * Folds the peers' beacons into the compared pairs. Every beacon is an agent: the same agent as a
 * line of work already compared only when that is provable — a pushed branch of the beacon's
 * name whose tip the beacon's published work contains (the peer published on top of what it
 * pushed) — and then it adds its uncommitted work to that side (merged per file, never counted
 * twice). Any other beacon is an agent of its own, compared with the ownship in the beacon's base
 * coordinates when that base commit is here, else with the beacon's files as whole-file entries
 * (coarse, never a silent miss). A beacon named like a line of work it is not (another machine on
 * `main`, a branch pushed by someone else) gets its publisher's machine and clone in its id, so
 * two agents never share one (docs/decisions/agent-identity.md).
 */
export interface BeaconFoldInput {
  readonly beacons: readonly Beacon[];
  readonly pairs: readonly PairWorkingSets[];
  readonly ownshipId: string | null;
  /** Ids of every line of work compared (ownship and traffic): a beacon may not take one it is not. */
  readonly lineIds: ReadonlySet<string>;
  /** The ownship's working set in `base` coordinates; `null` base = against its trunk merge-base. */
  readonly ownshipWorkingSet: (base: string | null) => Promise<WorkingSet>;
  readonly hasCommit: (sha: string) => Promise<boolean>;
  /** Where git runs (isAncestor: is a beacon's work on top of a pushed branch?). */
  readonly cwd: string;
  /** The commit holding each beacon's published work (the beacon commit's parent, see publishBeacon's `parent`). */
  readonly workOf: (beacon: Beacon) => string | null;
  /**
   * The commit holding the ownship's work (uncommitted included): with the beacons' work, the two
   * states the git channels compare (src/channels/). Absent: the pairs keep the states they have.
   */
  readonly ownWork?: string;
  /** Tips of the peers seen as pushed branches (id → remote-tracking commit). */
  readonly branchTips?: ReadonlyMap<string, string>;
  /**
   * The line of work of each pushed branch by its name (branch → id): the same unless the branch
   * has the ownship's name (`feature@origin`, src/traffic/discover-traffic.ts). Absent: by id.
   */
  readonly branchLines?: ReadonlyMap<string, string>;
  /** Every branch the remote has (Airspace.remoteBranchNames); absent when no remote is configured. */
  readonly remoteBranchNames?: ReadonlySet<string>;
  /**
   * `scan` compares every pair: a beacon-only agent is also paired with every other line of work
   * and every other beacon-only agent, not only with the ownship.
   */
  readonly everyPair?: {
    readonly lines: readonly LineOfWork[];
    /** A line's working set against `base` (null: against its trunk merge-base). */
    readonly workingSet: (line: LineOfWork, base: string | null) => Promise<WorkingSet>;
  };
}

/** A beacon as an agent of this run: the id it is known by here. */
export interface FoldedBeacon {
  readonly id: string;
  readonly beacon: Beacon;
  /** True when it was merged into the line of work of the same id (a pushed branch). */
  readonly merged: boolean;
  /** A beacon-only agent whose beacon counts pushed commits for a branch the remote no longer has. */
  readonly branchGone?: true;
}

export interface BeaconFoldResult {
  readonly pairs: PairWorkingSets[];
  /** Every beacon with the id it is known by: merged into a branch, or an agent of its own. */
  readonly folded: readonly FoldedBeacon[];
  /** Beacons that stand for agents seen nowhere else. */
  readonly beaconOnly: readonly FoldedBeacon[];
  /** Beacons merged into an agent already compared. */
  readonly merged: number;
  readonly unknown: UnknownPeer[];
}

/**
 * A beacon that counts pushed commits for a branch the remote no longer has: the branch was
 * deleted (work discarded, or merged and cleaned up) after the beacon was written, and its
 * publisher has not run since to withdraw it (found on trpc: a deleted branch's beacon blocked the
 * other machine's push). Its work may still be somewhere, so it is compared as before, but like a
 * stale beacon it never blocks on its own (src/run/verdict.ts).
 */
function branchGoneFromRemote(beacon: Beacon, remoteBranchNames: ReadonlySet<string> | undefined): boolean {
  return remoteBranchNames !== undefined && beacon.branch !== null && beacon.committedWork > 0 && !remoteBranchNames.has(beacon.branch);
}

/** The id of a beacon that may not take its own: `<agent>@<machine>.<first 4 of the clone id>` (older publishers: `@unknown`). */
export function qualifiedBeaconId(beacon: Beacon): string {
  return beacon.clone ? `${beacon.agent}@${beacon.clone.machine}.${beacon.clone.id.slice(0, 4)}` : `${beacon.agent}@unknown`;
}

/**
 * Which beacons are the pushed branch of their name (provably the same line of work), and the id
 * every other beacon is known by. A beacon of an older publisher (no clone) keeps the old rule: a
 * branch of its name is the same agent.
 */
async function identify(input: BeaconFoldInput): Promise<FoldedBeacon[]> {
  const byName = new Map<string, number>();
  for (const beacon of input.beacons) byName.set(beacon.agent, (byName.get(beacon.agent) ?? 0) + 1);
  // One `merge-base --is-ancestor` per beacon ahead of its branch: bounded as every git fan-out is
  // (11 at once put 13 abort listeners on the run's signal, and node warned: issue 24, item 10).
  return mapLimit(input.beacons, GIT_IN_FLIGHT, async (beacon): Promise<FoldedBeacon> => {
    const line = input.branchLines?.get(beacon.agent) ?? beacon.agent;
    const tip = input.branchTips?.get(line);
    if (tip !== undefined && (byName.get(beacon.agent) ?? 0) === 1 && (await onTopOf(input, beacon, tip))) return { id: line, beacon, merged: true };
    const taken = input.lineIds.has(beacon.agent) || (byName.get(beacon.agent) ?? 0) > 1;
    return { id: taken ? qualifiedBeaconId(beacon) : beacon.agent, beacon, merged: false };
  });
}

/** Git processes in flight at once (src/traffic/limit-concurrency.ts). */
const GIT_IN_FLIGHT = 4;

/** Whether the beacon's published work contains the branch tip: the peer published on top of what it pushed. */
async function onTopOf(input: BeaconFoldInput, beacon: Beacon, tip: string): Promise<boolean> {
  if (!beacon.clone) return true;
  const work = input.workOf(beacon);
  if (work === tip || beacon.head === tip) return true;
  if (work === null) return false;
  return isAncestor(input.cwd, tip, work);
}

/**
 * A peer seen both as a pushed branch and through its beacon: the peer's own machine merges its
 * current work (uncommitted included) with ours, so ours must merge with the newest work it
 * published — the beacon's parent when it contains the branch tip — not the older branch tip.
 * Otherwise the merge channel says 0 on one side and 1 on the other for the same two states. A
 * branch pushed after the beacon is the newer state and keeps its own.
 */
async function newestStates(input: BeaconFoldInput, pair: PairWorkingSets, mergedInto: ReadonlyMap<string, Beacon>): Promise<GitStates | null> {
  const own = input.ownWork;
  if (own === undefined || input.ownshipId === null || !pair.states) return pair.states;
  const peer = pair.a === input.ownshipId ? pair.b : pair.b === input.ownshipId ? pair.a : null;
  const tip = peer === null ? undefined : input.branchTips?.get(peer);
  const beacon = peer === null ? undefined : mergedInto.get(peer);
  const published = beacon ? input.workOf(beacon) : null;
  if (tip === undefined || published === null) return pair.states;
  // identify() proved a clone's beacon on top of the branch already; an older publisher's was taken on its name.
  if (!beacon!.clone && published !== tip && !(await isAncestor(input.cwd, tip, published))) return pair.states;
  return pair.a === input.ownshipId ? { a: own, b: published, fromBase: false } : { a: published, b: own, fromBase: false };
}

export async function foldBeacons(input: BeaconFoldInput): Promise<BeaconFoldResult> {
  const folded = await identify(input);
  const mergedInto = new Map(folded.filter((f) => f.merged).map((f) => [f.id, f.beacon]));
  let merged = 0;
  const withBeacon = (id: string, set: WorkingSet): WorkingSet => {
    const beacon = id === input.ownshipId ? undefined : mergedInto.get(id);
    if (!beacon) return set;
    merged++;
    return mergeBeaconIntoWorkingSet(set, beacon).workingSet;
  };
  const pairs = await mapLimit(input.pairs, GIT_IN_FLIGHT, async (pair) => {
    const states = await newestStates(input, pair, mergedInto);
    return { ...pair, workingSetA: withBeacon(pair.a, pair.workingSetA), workingSetB: withBeacon(pair.b, pair.workingSetB), states };
  });
  const beaconOnly: FoldedBeacon[] = [];
  const unknown: UnknownPeer[] = [];
  if (input.ownshipId === null) return { pairs, folded, beaconOnly, merged, unknown };
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
  const toVerify: Verification[] = [];
  for (const entry of folded) {
    const { beacon, id } = entry;
    if (entry.merged) continue;
    try {
      const base = beacon.base !== null && (await hasCommit(beacon.base)) ? beacon.base : null;
      const own = await ownshipWorkingSet(base);
      const theirs = base !== null ? beacon.workingSet : mergeBeaconIntoWorkingSet({ base: null, files: [] }, beacon).workingSet;
      const published = input.workOf(beacon);
      const states = input.ownWork !== undefined && published !== null ? { a: input.ownWork, b: published, fromBase: false } : null;
      if (states && base !== null) toVerify.push({ index: pairs.length, base, work: published!, own: own.files });
      pairs.push({ a: input.ownshipId, b: id, base: base ?? own.base ?? '', workingSetA: own, workingSetB: theirs, states });
      beaconOnly.push(branchGoneFromRemote(beacon, input.remoteBranchNames) ? { ...entry, branchGone: true } : entry);
    } catch (error) {
      if (!isAirspaceError(error)) throw error;
      unknown.push({ id, with: input.ownshipId, reason: error.message });
    }
  }
  await verifyBeaconFiles(input.cwd, pairs, toVerify);
  if (input.everyPair) await pairBeaconsWithEveryone(input, input.everyPair, beaconOnly, pairs, unknown, hasCommit);
  const beaconIds = new Set(folded.map((entry) => entry.id));
  return {
    pairs: await withoutSameFiles(input.cwd, pairs, (pair) => beaconIds.has(pair.a) || beaconIds.has(pair.b)),
    folded,
    beaconOnly,
    merged,
    unknown,
  };
}

/** A beacon-only pair whose beacon's base is here: its published work can be diffed from that base. */
interface Verification {
  readonly index: number;
  readonly base: string;
  readonly work: string;
  /** Our side against the same base: our work commit's own diff from it (src/run/gather-inputs.ts). */
  readonly own: readonly WorkingSetFile[];
}

/**
 * A beacon's files are its word, so the merge channel could not skip a beacon pair whose paths
 * cannot meet: every one cost a `git merge-tree` (500 beacons in the busiest area: 34–55 s,
 * docs/decisions/beacon-areas.md). The published work commit is here, so its diff from the
 * beacon's base is the proof: ONE `diff-tree --stdin` for every beacon, nothing left out, and the
 * pair's states carry both sides' files since that base (src/channels/merge-channel.ts).
 */
async function verifyBeaconFiles(cwd: string, pairs: PairWorkingSets[], toVerify: readonly Verification[]): Promise<void> {
  if (toVerify.length === 0) return;
  const diffs = await diffWorkingSets(
    cwd,
    toVerify.map(({ base, work }) => ({ base, target: work })),
  );
  for (const { index, base, work, own } of toVerify) {
    const theirs = diffs.get(diffKey({ base, target: work }));
    const pair = pairs[index]!;
    if (!theirs || theirs.unparsed || !pair.states) continue;
    pairs[index] = { ...pair, states: { ...pair.states, filesSinceBase: { a: own, b: theirs.files } } };
  }
}

/**
 * A beacon's files carry no object ids, so identical edits (src/traffic/identical-edits.ts) could
 * not be proven on its pairs: two clones that each ran `airspace-hooks install` in a husky project
 * have the same uncommitted block in `.husky/pre-commit`, and met as a TA on it. Where both work
 * commits are here, a file both sides leave with one content is proven identical and scored
 * without — by the objects themselves, never by a beacon's word.
 */
async function withoutSameFiles(cwd: string, pairs: PairWorkingSets[], involved: (pair: PairWorkingSets) => boolean): Promise<PairWorkingSets[]> {
  const asked = pairs.map((pair) => (pair.states && involved(pair) ? sharedResultPaths(pair.workingSetA, pair.workingSetB) : []));
  const questions = pairs.flatMap((pair, i) => asked[i]!.map((path) => ({ a: pair.states!.a, b: pair.states!.b, path })));
  if (questions.length === 0) return pairs;
  const answers = await sameContent(cwd, questions);
  let next = 0;
  return pairs.map((pair, i) => {
    const same = new Set(asked[i]!.filter(() => answers[next++] === true));
    if (same.size === 0) return pair;
    const [workingSetA, workingSetB] = withoutSameResults(pair.workingSetA, pair.workingSetB, same);
    return { ...pair, workingSetA, workingSetB };
  });
}

/**
 * `scan`'s other pairs of a beacon-only agent: with each line of work, in the beacon's base
 * coordinates (coarse whole-file entries when that base is not here), and with each other
 * beacon-only agent (their ranges when both share a base, else whole files). The git channels
 * compare the published work commits, where there are some.
 */
async function pairBeaconsWithEveryone(
  input: BeaconFoldInput,
  every: NonNullable<BeaconFoldInput['everyPair']>,
  beaconOnly: readonly FoldedBeacon[],
  pairs: PairWorkingSets[],
  unknown: UnknownPeer[],
  hasCommit: (sha: string) => Promise<boolean>,
): Promise<void> {
  const sides = await Promise.all(
    beaconOnly.map(async (entry) => {
      const { beacon } = entry;
      const base = beacon.base !== null && (await hasCommit(beacon.base)) ? beacon.base : null;
      const coarse = mergeBeaconIntoWorkingSet({ base: null, files: [] }, beacon).workingSet;
      return { entry, base, exact: base !== null ? beacon.workingSet : coarse, coarse, work: input.workOf(beacon) };
    }),
  );
  for (const side of sides) {
    for (const line of every.lines) {
      try {
        const theirs = await every.workingSet(line, side.base);
        const states = side.work !== null ? { a: targetOf(line), b: side.work, fromBase: false } : null;
        pairs.push({ a: line.id, b: side.entry.id, base: side.base ?? theirs.base ?? '', workingSetA: theirs, workingSetB: side.exact, states });
      } catch (error) {
        if (!isAirspaceError(error)) throw error;
        unknown.push({ id: side.entry.id, with: line.id, reason: error.message });
      }
    }
  }
  sides.forEach((x, i) => {
    for (const y of sides.slice(i + 1)) {
      const same = x.base !== null && x.base === y.base;
      const states = x.work !== null && y.work !== null ? { a: x.work, b: y.work, fromBase: false } : null;
      pairs.push({
        a: x.entry.id,
        b: y.entry.id,
        base: same ? x.base! : (x.base ?? y.base ?? ''),
        workingSetA: same ? x.exact : x.coarse,
        workingSetB: same ? y.exact : y.coarse,
        states,
      });
    }
  });
}
