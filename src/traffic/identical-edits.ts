import type { WorkingSet, WorkingSetFile } from './working-set.js';

/**
 * Both sides making the same change is not a collision: git's three-way merge takes an identical
 * change on both sides cleanly (the backport, the cherry-pick, two agents applying the same fix).
 * Yet the two sides' ranges overlap exactly, so overlap and proximity would score it as the worst
 * case. This removes what the two sides of ONE pair have in common, before the pair is scored:
 * - a file both sides leave with the same content (same post-image object id, same path): the
 *   entry goes on both sides;
 * - a hunk both sides have at the same base range with the same removed and added lines
 *   (`hunkIds`): the range goes on both sides, and an entry left without ranges goes too.
 * What stays is what differs. Entries without ids (data sets, beacons, old callers) are kept as
 * they are: only a proven identity removes anything.
 */
export function withoutIdenticalEdits<T extends WorkingSet>(a: T, b: T): readonly [T, T] {
  const byFile = new Map<string, WorkingSetFile>();
  for (const entry of b.files) byFile.set(entry.file, entry);
  const replacedA = new Map<WorkingSetFile, WorkingSetFile | null>();
  const replacedB = new Map<WorkingSetFile, WorkingSetFile | null>();
  for (const entryA of a.files) {
    const entryB = byFile.get(entryA.file);
    if (entryB === undefined) continue;
    if (sameResult(entryA, entryB)) {
      replacedA.set(entryA, null);
      replacedB.set(entryB, null);
      continue;
    }
    const common = commonHunks(entryA, entryB);
    if (common.size === 0) continue;
    replacedA.set(entryA, withoutHunks(entryA, common));
    replacedB.set(entryB, withoutHunks(entryB, common));
  }
  if (replacedA.size === 0) return [a, b];
  return [apply(a, replacedA), apply(b, replacedB)];
}

function sameResult(x: WorkingSetFile, y: WorkingSetFile): boolean {
  return x.blob !== undefined && x.blob === y.blob && x.status === y.status && (x.path ?? x.file) === (y.path ?? y.file);
}

const hunkKey = (range: readonly [number, number], id: string): string => `${range[0]},${range[1]} ${id}`;

function keys(entry: WorkingSetFile): string[] {
  const { ranges, hunkIds } = entry;
  if (ranges === undefined || hunkIds === undefined || hunkIds.length !== ranges.length || entry.whole === true) return [];
  return ranges.map((range, i) => hunkKey(range, hunkIds[i]!));
}

function commonHunks(x: WorkingSetFile, y: WorkingSetFile): Set<string> {
  const mine = new Set(keys(x));
  return new Set(keys(y).filter((key) => mine.has(key)));
}

/** The entry without the common hunks; null when nothing of it is left. */
function withoutHunks(entry: WorkingSetFile, common: ReadonlySet<string>): WorkingSetFile | null {
  const ranges: (readonly [number, number])[] = [];
  const hunkIds: string[] = [];
  entry.ranges!.forEach((range, i) => {
    const id = entry.hunkIds![i]!;
    if (common.has(hunkKey(range, id))) return;
    ranges.push(range);
    hunkIds.push(id);
  });
  // A rename keeps its move even when every hunk is shared: the path change is still its own.
  if (ranges.length === 0 && (entry.path === undefined || entry.path === entry.file)) return null;
  if (ranges.length === 0) {
    const { ranges: _ranges, hunkIds: _ids, ...rest } = entry;
    return { ...rest, whole: true };
  }
  return { ...entry, ranges, hunkIds };
}

function apply<T extends WorkingSet>(set: T, replaced: ReadonlyMap<WorkingSetFile, WorkingSetFile | null>): T {
  const files: WorkingSetFile[] = [];
  for (const entry of set.files) {
    const next = replaced.has(entry) ? replaced.get(entry)! : entry;
    if (next !== null) files.push(next);
  }
  return { ...set, files };
}

/**
 * The post-image paths both sides change with the same status and the same path: where a beacon's
 * side has no object ids, whether the two results are one content is asked of the two work commits
 * instead (src/run/beacon-traffic.ts).
 */
export function sharedResultPaths(a: WorkingSet, b: WorkingSet): string[] {
  const byFile = new Map<string, WorkingSetFile>();
  for (const entry of b.files) byFile.set(entry.file, entry);
  const paths: string[] = [];
  for (const entryA of a.files) {
    const entryB = byFile.get(entryA.file);
    if (entryB === undefined || entryA.status !== entryB.status || entryA.status === 'D') continue;
    const path = entryA.path ?? entryA.file;
    if ((entryB.path ?? entryB.file) === path) paths.push(path);
  }
  return paths;
}

/** Both sides without the files whose result is proven the same content (paths from sharedResultPaths). */
export function withoutSameResults<T extends WorkingSet>(a: T, b: T, same: ReadonlySet<string>): readonly [T, T] {
  if (same.size === 0) return [a, b];
  const keep = (entry: WorkingSetFile): boolean => !same.has(entry.path ?? entry.file);
  return [
    { ...a, files: a.files.filter(keep) },
    { ...b, files: b.files.filter(keep) },
  ];
}
