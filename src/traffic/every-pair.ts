import { isAirspaceError } from '../errors.js';
import { boundaries, lineCommits, type CommitInfo } from '../git/branch-history.js';
import type { DiffWorkingSet } from '../git/diff-working-set.js';
import { mapLimit } from './limit-concurrency.js';
import { targetOf, type LineOfWork } from './line-of-work.js';
import { firstParentPositions, trunkSteps } from '../git/trunk-steps.js';
import { dirOf, meetingPairs, meetingViews, pathView, type PathView } from './meeting-pairs.js';
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
  /**
   * Of them, pairs of lines in different groups (`AcrossBases`): counted, not described — their
   * sides against each other were never read, so no later stage can build them.
   */
  readonly across: number;
}

/**
 * Pairs of lines that left the trunk at different commits, both on the trunk's first-parent chain:
 * their merge-base is the older boundary O, and the newer line's side against O has at most the
 * paths of its own side plus those the trunk changed from O to its boundary. When that superset
 * does not meet the older line's side, neither does the exact side: the pair is left unbuilt like
 * a pair of one group. Only for a caller that never builds such pairs later (`scan` past the symbol
 * channel's every-pair limit under the `path` contact rule, src/run/pairs-to-score.ts) and only for
 * lines without a declared intent (worktrees keep all their pairs built).
 */
export interface AcrossBases {
  /** The trunk the lines were read against: the ref their boundaries lie on. */
  readonly trunk: string;
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
export async function compareEveryPair(
  lines: readonly LineOfWork[],
  context: PairContext,
  open: (line: LineOfWork) => boolean,
  across?: AcrossBases,
): Promise<EveryPair> {
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
  const apart =
    across && drafts.length > 1
      ? await acrossGroups(
          lines,
          drafts.map((draft) => draft.base),
          groupOf,
          sides,
          across,
          context,
        )
      : null;
  const list: [LineOfWork, LineOfWork][] = [];
  let acrossCount = 0;
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
      } else if (i > 1 && apart?.(i, j)) {
        acrossCount++;
        continue;
      }
      list.push([lines[i]!, lines[j]!]);
    }
  }
  const compared = await comparer.compare(list);
  let count = acrossCount;
  const groups = drafts.map((draft): UnpairedGroup => {
    const m = draft.members.length;
    count += (m * (m - 1)) / 2 - draft.built.size;
    return {
      base: draft.base,
      members: draft.members.map((line) => ({ line: lines[line]!, side: workingSet(draft.base, sides[line]!) })),
      built: draft.built,
    };
  });
  return { compared, unpaired: { groups, count, across: acrossCount } };
}

/**
 * For lines of different groups (AcrossBases): whether the pair (i, j) is proven apart. Per line on
 * the chain, its view (meeting-pairs.ts); per step of the trunk between two neighbouring boundaries,
 * the paths it changed (and the directories it deleted files from, which a rename in the newer
 * line's diff from the older boundary may pair); per line, what its diff from an older base can
 * add beyond its own side: the directories of its deletions and rename sources (a rename there may
 * pair them with a trunk file instead) and its ignored paths (a kept rename may pair one with a
 * trunk file). One index over all of them. The pair of older line o and newer line y is built when
 * o meets y, o meets a trunk step between their boundaries, or o meets what y's diff may add.
 */
async function acrossGroups(
  lines: readonly LineOfWork[],
  bases: readonly string[],
  groupOf: Int32Array,
  sides: readonly (DiffWorkingSet | null)[],
  across: AcrossBases,
  context: PairContext,
): Promise<((i: number, j: number) => boolean) | null> {
  const positions = await firstParentPositions(context.cwd, across.trunk, new Set(bases));
  if (positions.size < 2) return null;
  const chain = [...positions.keys()].sort((x, y) => positions.get(x)! - positions.get(y)!);
  const steps = await trunkSteps(context.cwd, chain);
  const n = lines.length;
  // Per line: its boundary's place on the chain, -1 when its pairs across groups are all built.
  const position = new Int32Array(n).fill(-1);
  const views: PathView[] = [];
  const viewOfLine = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const g = groupOf[i]!;
    const at = g >= 0 ? positions.get(bases[g]!) : undefined;
    if (at === undefined || lines[i]!.kind === 'worktree') continue;
    position[i] = at;
    viewOfLine[i] = views.push(pathView(sides[i]!.files)) - 1;
  }
  const firstStep = views.length;
  for (const step of steps) views.push({ paths: new Set(step.paths), moved: new Set(step.deleted.map(dirOf)) });
  const extensionOf = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    if (position[i]! < 0) continue;
    const side = sides[i]!;
    const moved = new Set<string>();
    for (const entry of side.files) {
      if (entry.status === 'D' || (entry.path !== undefined && entry.path !== entry.file)) moved.add(dirOf(entry.file));
    }
    const ignored = side.ignoredPaths ?? [];
    for (const path of ignored) moved.add(dirOf(path));
    if (moved.size > 0 || ignored.length > 0) extensionOf.set(views.push({ paths: new Set(ignored), moved }) - 1, i);
  }
  const lineOfView = new Int32Array(views.length).fill(-1);
  viewOfLine.forEach((view, line) => {
    if (view >= 0) lineOfView[view] = line;
  });
  const v = views.length;
  const meets = new Set<number>();
  // Per line, the trunk steps its side meets (step t: chain[t] → chain[t + 1]).
  const stepsMet: number[][] = Array.from({ length: n }, () => []);
  const meetsExtension = new Set<number>();
  for (const key of meetingViews(views)) {
    const x = Math.floor(key / v);
    const y = key % v;
    const lineX = lineOfView[x]!;
    const lineY = lineOfView[y]!;
    if (lineX >= 0 && lineY >= 0) meets.add(lineX * n + lineY);
    else if (lineX >= 0 && y >= firstStep && y < firstStep + steps.length) stepsMet[lineX]!.push(y - firstStep);
    else if (lineX >= 0 && extensionOf.has(y)) meetsExtension.add(lineX * n + extensionOf.get(y)!);
    else if (lineY >= 0 && extensionOf.has(x)) meetsExtension.add(lineY * n + extensionOf.get(x)!);
  }
  return (i, j) => {
    const [older, newer] = position[i]! <= position[j]! ? [i, j] : [j, i];
    const from = position[older]!;
    const to = position[newer]!;
    if (from < 0 || from === to) return false;
    if (meets.has(i * n + j) || meetsExtension.has(older * n + newer)) return false;
    return !stepsMet[older]!.some((t) => t >= from && t < to);
  };
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
