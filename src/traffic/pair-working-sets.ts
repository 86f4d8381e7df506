import { isAirspaceError } from '../errors.js';
import { gitMessages } from '../messages/command-line.js';
import { boundaries, lineCommits, lineEditTimes, type CommitGraph } from '../git/branch-history.js';
import { diffKey, diffWorkingSets, type DiffRequest, type DiffWorkingSet } from '../git/diff-working-set.js';
import { lastCommitTimes, worktreeMtimes } from '../git/last-edit-times.js';
import { mergeBase, type MergeBaseResult } from '../git/merge-base.js';
import { mapLimit } from './limit-concurrency.js';
import { targetOf, type LineOfWork } from './line-of-work.js';
import { withoutIdenticalEdits } from './identical-edits.js';
import type { WorkingSet, WorkingSetFile } from './working-set.js';

export interface PairContext {
  readonly cwd: string;
  /** Commits of every line not in the trunk (one `git log`), and whether it is complete. */
  readonly graph: CommitGraph;
  readonly graphComplete: boolean;
  readonly ignore: (path: string) => boolean;
  readonly concurrency: number;
}

export interface ComparedPair {
  readonly a: LineOfWork;
  readonly b: LineOfWork;
  readonly base: MergeBaseResult;
  readonly workingSetA?: WorkingSet;
  readonly workingSetB?: WorkingSet;
  readonly unparsed?: boolean;
}

/**
 * Both sides of every pair in the pair's base coordinates, with as few git processes as the data
 * allows (each costs ~10 ms on a small machine; 200 peers must not mean 800 processes):
 * - merge-base: two lines that share no commits outside the trunk and each leave it at one
 *   boundary commit have the boundaries' merge-base — usually the same commit, so no git call;
 *   anything else asks `git merge-base`, memoised.
 * - diffs: ONE `diff-tree --stdin` for all (base, target) requests.
 * - last edit times: from the commit graph when `base..tip` is exactly the line's own commits,
 *   else one `git log` for that (base, tip).
 * The channels git computes on the two states (merge, symbol) are not computed here: src/channels/.
 */
export async function comparePairs(list: readonly (readonly [LineOfWork, LineOfWork])[], context: PairContext): Promise<ComparedPair[]> {
  return pairComparer(context).compare(list);
}

/**
 * The caches behind comparePairs, for a caller that needs sides before pairs (compareEveryPair,
 * src/traffic/every-pair.ts): one merge-base per pair of commits, one diff per (base, target) —
 * requested in batches, a diff already read is never asked again —, one working set per (base, line).
 */
export interface PairComparer {
  /** Reads the diffs of these requests not read yet, in ONE `diff-tree --stdin`. */
  loadDiffs(requests: readonly DiffRequest[]): Promise<void>;
  /** One side against a base, with its edit times; the same object for every pair with that (base, line). */
  side(base: string, line: LineOfWork): Promise<DiffWorkingSet>;
  compare(list: readonly (readonly [LineOfWork, LineOfWork])[]): Promise<ComparedPair[]>;
}

export function pairComparer(context: PairContext): PairComparer {
  const memo = new Map<string, Promise<MergeBaseResult>>();
  const cached = (x: string, y: string): Promise<MergeBaseResult> => {
    const key = x < y ? `${x} ${y}` : `${y} ${x}`;
    if (!memo.has(key)) memo.set(key, mergeBase(context.cwd, x, y));
    return memo.get(key)!;
  };
  // `<base> <boundary>` where base is the merge-base of that boundary and another: an ancestor of
  // the boundary, so a line leaving the trunk there has exactly its own commits and the trunk's
  // `base..boundary` in `base..tip` (editTimes).
  const belowBoundary = new Set<string>();
  const boundaryBase = async (x: string, y: string): Promise<MergeBaseResult> => {
    const found = await cached(x, y);
    if (found.base !== null) belowBoundary.add(`${found.base} ${x}`).add(`${found.base} ${y}`);
    return found;
  };
  const trunkTimes = new Map<string, Promise<Map<string, number>>>();
  const trunkTimesOf = (base: string, boundary: string): Promise<Map<string, number>> => {
    const key = `${base} ${boundary}`;
    if (!trunkTimes.has(key)) trunkTimes.set(key, lastCommitTimes(context.cwd, base, boundary));
    return trunkTimes.get(key)!;
  };
  const diffs = new Map<string, DiffWorkingSet>();
  const loadDiffs = async (requests: readonly DiffRequest[]): Promise<void> => {
    const missing = requests.filter((request) => !diffs.has(diffKey(request)));
    for (const [key, diff] of await diffWorkingSets(context.cwd, missing, { ignore: context.ignore })) diffs.set(key, diff);
  };
  const times = new Map<string, Promise<Map<string, number>>>();
  const mtimes = new Map<string, Promise<Map<string, number | null>>>();
  // One working set per (base, line): every pair with that base shares the same object, so the
  // per-file timestamps are joined once, not once per pair (200 agents = 19,900 pairs).
  const sides = new Map<string, Promise<DiffWorkingSet>>();
  const side = (base: string, line: LineOfWork): Promise<DiffWorkingSet> => {
    const key = `${base} ${line.id}`;
    let found = sides.get(key);
    if (found === undefined) {
      found = sideOnce(base, line);
      sides.set(key, found);
    }
    return found;
  };
  const sideOnce = async (base: string, line: LineOfWork): Promise<DiffWorkingSet> => {
    const diff = diffs.get(diffKey({ base, target: targetOf(line) })) ?? { base, files: [], unparsed: true };
    const timeKey = `${base} ${line.tip}`;
    if (!times.has(timeKey)) times.set(timeKey, editTimes(base, line, context, belowBoundary, trunkTimesOf));
    if (!mtimes.has(line.id))
      mtimes.set(
        line.id,
        line.worktreePath && line.uncommittedPaths?.length ? worktreeMtimes(line.worktreePath, line.uncommittedPaths) : Promise.resolve(new Map()),
      );
    const [committed, uncommitted] = await Promise.all([times.get(timeKey)!, mtimes.get(line.id)!]);
    return { ...diff, files: diff.files.map((entry) => withTime(entry, committed, uncommitted)) };
  };
  const compare = async (list: readonly (readonly [LineOfWork, LineOfWork])[]): Promise<ComparedPair[]> => {
    const bases = await mapLimit(list, context.concurrency, ([a, b]) => pairBase(a, b, context, cached, boundaryBase));
    const requests: DiffRequest[] = [];
    list.forEach(([a, b], index) => {
      const base = bases[index]!.base;
      if (base !== null) requests.push({ base, target: targetOf(a) }, { base, target: targetOf(b) });
    });
    await loadDiffs(requests);
    const sided = await mapLimit(list, context.concurrency, async ([a, b], index): Promise<SidedPair> => {
      const found = bases[index]!;
      if (found.base === null) return { a, b, base: found };
      // One pair failing (a git error reading its times) must not take the other pairs down.
      const both = await Promise.all([side(found.base, a), side(found.base, b)]).catch((error: unknown) => {
        if (!isAirspaceError(error)) throw error;
        return gitMessages.peerFailed(b.id, error.message);
      });
      if (typeof both === 'string') return { a, b, base: { base: null, reason: both } };
      // What both sides changed identically is no collision (git merges it cleanly): scored without it.
      return { a, b, base: found, sides: withoutIdenticalEdits(both[0], both[1]) };
    });
    return sided.map(({ a, b, base: found, sides: pairSides }): ComparedPair => {
      if (found.base === null || !pairSides) return { a, b, base: found };
      const [workingSetA, workingSetB] = pairSides;
      return {
        a,
        b,
        base: found,
        workingSetA: workingSet(found.base, workingSetA),
        workingSetB: workingSet(found.base, workingSetB),
        unparsed: workingSetA.unparsed || workingSetB.unparsed,
      };
    });
  };
  return { loadDiffs, side, compare };
}

interface SidedPair {
  readonly a: LineOfWork;
  readonly b: LineOfWork;
  readonly base: MergeBaseResult;
  readonly sides?: readonly [DiffWorkingSet, DiffWorkingSet];
}

const plain = new WeakMap<DiffWorkingSet, WorkingSet>();

/** The shared side without its diff flags, one object per side (later stages cache by identity). */
export function workingSet(base: string, side: DiffWorkingSet): WorkingSet {
  let set = plain.get(side);
  if (set === undefined) {
    set = { base, files: side.files };
    plain.set(side, set);
  }
  return set;
}

async function pairBase(
  a: LineOfWork,
  b: LineOfWork,
  context: PairContext,
  cached: (x: string, y: string) => Promise<MergeBaseResult>,
  boundaryBase: (x: string, y: string) => Promise<MergeBaseResult>,
): Promise<MergeBaseResult> {
  if (context.graphComplete) {
    const [ba, bb] = [boundaries(context.graph, a.tip), boundaries(context.graph, b.tip)];
    if (ba.length === 1 && bb.length === 1 && !shareCommits(context.graph, a.tip, b.tip)) {
      return ba[0] === bb[0] ? { base: ba[0]! } : boundaryBase(ba[0]!, bb[0]!);
    }
  }
  return cached(a.tip, b.tip);
}

function shareCommits(graph: CommitGraph, x: string, y: string): boolean {
  const own = new Set(lineCommits(graph, x));
  return lineCommits(graph, y).some((commit) => own.has(commit));
}

async function editTimes(
  base: string,
  line: LineOfWork,
  context: PairContext,
  belowBoundary: ReadonlySet<string>,
  trunkTimesOf: (base: string, boundary: string) => Promise<Map<string, number>>,
): Promise<Map<string, number>> {
  if (line.tip === base) return new Map();
  const own = context.graphComplete ? boundaries(context.graph, line.tip) : [];
  if (own.length === 1 && own[0] === base) return lineEditTimes(context.graph, line.tip);
  // Below the line's boundary B: `base..tip` is the line's own commits and the trunk's `base..B`,
  // read once per (base, B) for every line leaving at B instead of one `git log` per line.
  if (own.length === 1 && belowBoundary.has(`${base} ${own[0]}`)) {
    const times = new Map(await trunkTimesOf(base, own[0]!));
    for (const [path, time] of lineEditTimes(context.graph, line.tip)) if ((times.get(path) ?? -Infinity) < time) times.set(path, time);
    return times;
  }
  return lastCommitTimes(context.cwd, base, line.tip);
}

export function withTime(entry: WorkingSetFile, committed: Map<string, number>, uncommitted: Map<string, number | null>): WorkingSetFile {
  const sidePath = entry.path ?? entry.file;
  for (const path of [sidePath, entry.file]) {
    if (uncommitted.has(path)) return { ...entry, lastEditTime: uncommitted.get(path) ?? null, origin: 'uncommitted' };
  }
  return { ...entry, lastEditTime: committed.get(sidePath) ?? committed.get(entry.file) ?? null, origin: 'committed' };
}
