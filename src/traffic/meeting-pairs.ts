import type { WorkingSetFile } from './working-set.js';

/**
 * The pairs of working sets (same base) whose paths meet, found through an inverted index of paths
 * instead of comparing every pair: `scan` of 1,000 agents has 499,500 pairs, of which a few hundred
 * meet. "Meet" is exactly what src/channels/paths-may-conflict.ts tests (and so contains what the
 * engine's shared files need, a path in common): one side's path (base or renamed) is
 *   - a path of the other side (the same file),
 *   - a directory above a path of the other side (file/directory), or
 *   - directly in a directory the other side moved a file out of (directory-rename detection).
 * A pair that does not meet shares no file, and `git merge-tree` can report no conflict for it.
 * Returns each meeting pair once as `i * n + j` (i < j, n = sets.length).
 */
export function meetingPairs(sets: readonly (readonly WorkingSetFile[])[]): Set<number> {
  return meetingViews(sets.map(pathView));
}

/** What of a side the meeting test reads: its paths (both of a rename) and the directories it moved files out of. */
export interface PathView {
  readonly paths: ReadonlySet<string>;
  readonly moved: ReadonlySet<string>;
}

export function pathView(files: readonly WorkingSetFile[]): PathView {
  return { paths: new Set(files.flatMap(pathsOf)), moved: movedFrom(files) };
}

/** meetingPairs on views: `i * n + j` (i < j) for each pair of views that meet. */
export function meetingViews(views: readonly PathView[]): Set<number> {
  const n = views.length;
  const byPath = new Map<string, number[]>();
  const byParent = new Map<string, number[]>();
  const indexed = views.map((view, index) => {
    const dirs = new Set<string>();
    const parents = new Set<string>();
    for (const path of view.paths) {
      parents.add(dirOf(path));
      for (let at = path.indexOf('/'); at >= 0; at = path.indexOf('/', at + 1)) dirs.add(path.slice(0, at));
    }
    for (const path of view.paths) add(byPath, path, index);
    for (const parent of parents) add(byParent, parent, index);
    return { paths: view.paths, dirs, moved: view.moved };
  });
  const found = new Set<number>();
  const pair = (x: number, y: number): void => {
    if (x !== y) found.add(x < y ? x * n + y : y * n + x);
  };
  indexed.forEach((view, x) => {
    for (const path of view.paths) for (const y of byPath.get(path) ?? []) pair(x, y);
    // A directory of x that is a file of y; the other way round is found from y's side.
    for (const dir of view.dirs) for (const y of byPath.get(dir) ?? []) pair(x, y);
    for (const dir of view.moved) for (const y of byParent.get(dir) ?? []) pair(x, y);
  });
  return found;
}

function add(index: Map<string, number[]>, key: string, value: number): void {
  const list = index.get(key);
  if (list === undefined) index.set(key, [value]);
  else list.push(value);
}

function pathsOf(entry: WorkingSetFile): string[] {
  return entry.path !== undefined && entry.path !== entry.file ? [entry.file, entry.path] : [entry.file];
}

/** Directories a rename moved a file out of (base directory ≠ new directory). */
function movedFrom(files: readonly WorkingSetFile[]): Set<string> {
  const moved = new Set<string>();
  for (const entry of files) {
    if (entry.path !== undefined && entry.path !== entry.file && dirOf(entry.path) !== dirOf(entry.file)) moved.add(dirOf(entry.file));
  }
  return moved;
}

export function dirOf(path: string): string {
  const at = path.lastIndexOf('/');
  return at < 0 ? '' : path.slice(0, at);
}
