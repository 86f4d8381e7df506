import { isAirspaceError } from '../errors.js';
import { boundaries, lineCommits, type CommitInfo } from '../git/branch-history.js';
import type { DiffWorkingSet } from '../git/diff-working-set.js';
import { mapLimit } from './limit-concurrency.js';
import { targetOf, type LineOfWork } from './line-of-work.js';
import { meetingPairs } from './meeting-pairs.js';
import { pairComparer, workingSet, type ComparedPair, type PairContext } from './pair-working-sets.js';
import type { WorkingSet } from './working-set.js';

/**
 * Lines of work that leave the trunk at one commit and share none of their commits with each
 * other (a line that shares one leaves the group): every pair of them has that commit as its
 * merge-base, so each line has ONE side for all those pairs (its diff from the commit). A pair of
 * them whose sides do not meet (src/traffic/meeting-pairs.ts) has no shared path and no possible
 * `git merge-tree` conflict; it is not built, only described here. `built` holds the member pairs that were built anyway
 * (`i * members.length + j`, i < j).
 */
export interface UnpairedGroup {
  readonly base: string;
  /** In the order of the lines given to compareEveryPair. */
  readonly members: readonly { readonly line: LineOfWork; readonly side: WorkingSet }[];
  readonly built: ReadonlySet<number>;
}

export interface Unpaired {
  readonly groups: readonly UnpairedGroup[];
  /** Pairs described and not built. */
  readonly count: number;
}

export interface EveryPair {
  readonly compared: ComparedPair[];
  readonly unpaired: Unpaired;
}

/**
 * Every pair of `lines` (`scan`), building only the pairs that can matter: those whose sides meet,
 * those whose merge-base is not one shared boundary (lines in different groups, with several
 * boundaries or sharing commits), those of a line that may gain paths after this
 * stage (`open`: the ownship's intent and snapshot, a beacon merged into a branch), and the pairs of
 * the first two lines — so that every line appears in a built pair, in the same first pair as in
 * the full list (later stages take an agent's first working set and order from the pair list, and
 * a caller may drop the first line's pairs: `scan --agent` drops the ownship's). Built pairs keep
 * the full list's order. The same ComparedPair values as comparePairs on the full list, minus the
 * pairs in `unpaired` (test/unit/traffic/meeting-pairs.test.ts checks the index, the scan report
 * test/integration/scan-indexed-pairs.test.ts the whole).
 */
export async function compareEveryPair(lines: readonly LineOfWork[], context: PairContext, open: (line: LineOfWork) => boolean): Promise<EveryPair> {
  const comparer = pairComparer(context);
  const n = lines.length;
  const boundaryOf = lines.map((line): string | null => {
    if (!context.graphComplete || open(line)) return null;
    const own = boundaries(context.graph, line.tip);
    return own.length === 1 ? own[0]! : null;
  });
  // Two lines sharing a commit have a merge-base of their own (git is asked per pair): such a line
  // leaves the groups, and all its pairs are built as before.
  for (const index of sharingCommits(lines, boundaryOf, context)) boundaryOf[index] = null;
  await comparer.loadDiffs(lines.flatMap((line, i) => (boundaryOf[i] === null ? [] : [{ base: boundaryOf[i]!, target: targetOf(line) }])));
  const sides = await mapLimit(lines, context.concurrency, async (line, i): Promise<DiffWorkingSet | null> => {
    const base = boundaryOf[i];
    if (base === null || base === undefined) return null;
    // A side git could not read or parse stays in the full path, where its pairs report why.
    const side = await comparer.side(base, line).catch((error: unknown) => {
      if (!isAirspaceError(error)) throw error;
      return null;
    });
    return side === null || side.unparsed ? null : side;
  });
  const byBase = new Map<string, number[]>();
  lines.forEach((_, i) => {
    if (sides[i] === null) return;
    const list = byBase.get(boundaryOf[i]!);
    if (list === undefined) byBase.set(boundaryOf[i]!, [i]);
    else list.push(i);
  });
  // Per line: its group and its position in it (-1: not in a group, every pair of it is built).
  const groupOf = new Int32Array(n).fill(-1);
  const slotOf = new Int32Array(n).fill(-1);
  const drafts = [...byBase.entries()].map(([base, members], g) => {
    members.forEach((line, slot) => {
      groupOf[line] = g;
      slotOf[line] = slot;
    });
    const needed = meetingPairs(members.map((line) => sides[line]!.files));
    return { base, members, needed, built: new Set<number>() };
  });
  const list: [LineOfWork, LineOfWork][] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const g = groupOf[i]!;
      if (i > 1 && g >= 0 && g === groupOf[j]) {
        const draft = drafts[g]!;
        const key = slotOf[i]! * draft.members.length + slotOf[j]!;
        if (!draft.needed.has(key)) continue;
        draft.built.add(key);
      } else if (g >= 0 && g === groupOf[j]) {
        drafts[g]!.built.add(slotOf[i]! * drafts[g]!.members.length + slotOf[j]!);
      }
      list.push([lines[i]!, lines[j]!]);
    }
  }
  const compared = await comparer.compare(list);
  let count = 0;
  const groups = drafts.map((draft): UnpairedGroup => {
    const m = draft.members.length;
    count += (m * (m - 1)) / 2 - draft.built.size;
    return {
      base: draft.base,
      members: draft.members.map((line) => ({ line: lines[line]!, side: workingSet(draft.base, sides[line]!) })),
      built: draft.built,
    };
  });
  return { compared, unpaired: { groups, count } };
}

/** Lines that share one of their commits with another line of the same boundary (one pass over the commits). */
function sharingCommits(lines: readonly LineOfWork[], boundaryOf: readonly (string | null)[], context: PairContext): Set<number> {
  const holder = new Map<CommitInfo, number>();
  const sharing = new Set<number>();
  lines.forEach((line, index) => {
    if (boundaryOf[index] === null) return;
    for (const commit of lineCommits(context.graph, line.tip)) {
      const first = holder.get(commit);
      if (first === undefined) holder.set(commit, index);
      else if (first !== index && boundaryOf[first] === boundaryOf[index]) {
        sharing.add(first);
        sharing.add(index);
      }
    }
  });
  return sharing;
}
