import { isAirspaceError } from '../errors.js';
import { commitsSince } from '../git/commits-since.js';
import { currentRunSignal } from '../git/run-scope.js';
import { mapLimit } from '../traffic/limit-concurrency.js';
import type { ChannelledPair } from './types.js';

/**
 * A pair of states whose merge base is known without asking git per pair: beacon pairs carry the
 * beacon's declared base B (its work T was published on top of it) and our state O. `git merge-tree
 * O T` and `git merge-base O T` use B exactly when B is the ONE best common ancestor, and that is
 * decided from the commits reachable from O or T but not from B, listed once per distinct B
 * (commitsSince). With X(c) = the listed commits reachable from c (c included when listed):
 * - B is an ancestor of c iff c = B or some commit of X(c) has B as a parent: a path from c down
 *   to B never leaves the listing (every commit on it is a descendant of B, so not an ancestor).
 * - every common ancestor of O and T is an ancestor of B iff X(O) and X(T) are disjoint.
 * Both ancestries and disjointness ⇔ the common ancestors are exactly B's ancestors ⇔ B is the
 * unique merge base. A pair that fails (or whose base is not here, or whose listing is too long)
 * is simply not proven: it keeps asking git on its own.
 */
export function provenAgainst(base: string, ours: string, theirs: readonly string[], parents: ReadonlyMap<string, readonly string[]>): boolean[] {
  const reachesBase = reachesThrough(base, parents);
  if (!reachesBase(ours)) return theirs.map(() => false);
  const oursSet = reachableSet(ours, parents);
  return theirs.map((tip) => {
    if (tip === base) return true;
    if (!parents.has(tip)) return false;
    // Only the side's own listed commits are walked: a beacon's snapshot and the commits under it.
    const mine = reachableSet(tip, parents);
    for (const commit of mine) if (oursSet.has(commit)) return false;
    return reachesBase(tip);
  });
}

/** Memoized: whether a listed commit reaches `base` through listed commits (iterative, no recursion depth limit). */
function reachesThrough(base: string, parents: ReadonlyMap<string, readonly string[]>): (commit: string) => boolean {
  const memo = new Map<string, boolean>();
  return (start) => {
    if (start === base) return true;
    if (!parents.has(start)) return false;
    const stack: { commit: string; next: number }[] = [{ commit: start, next: 0 }];
    const onStack = new Set([start]);
    while (stack.length > 0) {
      const top = stack.at(-1)!;
      const ps = parents.get(top.commit)!;
      if (ps.includes(base)) {
        memo.set(top.commit, true);
      } else {
        let descended = false;
        while (top.next < ps.length) {
          const parent = ps[top.next++]!;
          if (!parents.has(parent) || onStack.has(parent)) continue;
          if (!memo.has(parent)) {
            stack.push({ commit: parent, next: 0 });
            onStack.add(parent);
            descended = true;
            break;
          }
        }
        if (descended) continue;
        memo.set(
          top.commit,
          ps.some((parent) => memo.get(parent) === true),
        );
      }
      stack.pop();
      onStack.delete(top.commit);
    }
    return memo.get(start) === true;
  };
}

/** The listed commits reachable from `start` (itself included when listed). */
function reachableSet(start: string, parents: ReadonlyMap<string, readonly string[]>): Set<string> {
  const seen = new Set<string>();
  const todo = parents.has(start) ? [start] : [];
  while (todo.length > 0) {
    const commit = todo.pop()!;
    if (seen.has(commit)) continue;
    seen.add(commit);
    for (const parent of parents.get(commit)!) if (parents.has(parent) && !seen.has(parent)) todo.push(parent);
  }
  return seen;
}

// A base whose listing passes this many commits (a beacon far behind, or unrelated history) proves nothing.
const MAX_LISTED = 5000;

/**
 * The proven merge base of each pair that is not a `fromBase` pair (those have their base from git
 * already), by pair index: one `rev-list` per distinct declared base, run only for bases shared by
 * at least `minPairs` pairs (below that, the per-pair processes cost less than proving).
 */
export async function proveMergeBases(
  cwd: string,
  pairs: readonly ChannelledPair[],
  options: { readonly minPairs: number; readonly concurrency: number },
): Promise<Map<number, string>> {
  const groups = new Map<string, Map<string, number[]>>();
  pairs.forEach((pair, k) => {
    const states = pair.states;
    if (!states || states.fromBase || pair.base === '') return;
    const byOurs = groups.get(pair.base) ?? new Map<string, number[]>();
    byOurs.set(states.a, [...(byOurs.get(states.a) ?? []), k]);
    groups.set(pair.base, byOurs);
  });
  const jobs = [...groups].flatMap(([base, byOurs]) => [...byOurs].map(([ours, indexes]) => ({ base, ours, indexes })));
  const proven = new Map<number, string>();
  await mapLimit(
    jobs.filter((job) => job.indexes.length >= options.minPairs),
    options.concurrency,
    async ({ base, ours, indexes }) => {
      const theirs = indexes.map((k) => pairs[k]!.states!.b);
      let parents: Map<string, string[]> | null;
      try {
        parents = await commitsSince(cwd, base, [ours, ...theirs], MAX_LISTED);
      } catch (error) {
        if (!isAirspaceError(error) || currentRunSignal()?.aborted) throw error;
        return;
      }
      if (!parents) return;
      provenAgainst(base, ours, theirs, parents).forEach((ok, i) => {
        if (ok) proven.set(indexes[i]!, base);
      });
    },
  );
  return proven;
}
