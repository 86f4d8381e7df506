import type { WorkingSetFile } from '../traffic/working-set.js';

/**
 * Whether a textual merge of two working sets (same base) could conflict at all. Every conflict
 * `git merge-tree` reports involves a path both sides touched: the same file (content,
 * modify/delete, add/add, rename/rename, rename/delete — a rename lists its base path too), a file
 * on one side where the other has a directory (file/directory), or a file added in a directory the
 * other side renamed away (directory-rename detection: "CONFLICT (file location)"). Anything else
 * merges cleanly, so the merge-tree process can be skipped.
 */
export function pathsMayConflict(a: readonly WorkingSetFile[], b: readonly WorkingSetFile[]): boolean {
  return meets(a, b) || renamedDirMeets(a, b) || renamedDirMeets(b, a);
}

interface PathIndex {
  readonly paths: readonly string[];
  readonly files: ReadonlySet<string>;
  readonly dirs: ReadonlySet<string>;
  readonly parents: readonly (readonly string[])[];
}

// A working set takes part in many pairs (`scan` of n agents: n − 1 each); index it once.
const indexes = new WeakMap<readonly WorkingSetFile[], PathIndex>();

function indexOf(files: readonly WorkingSetFile[]): PathIndex {
  let index = indexes.get(files);
  if (index === undefined) {
    const paths = files.flatMap(pathsOf);
    const parents = paths.map(parentDirs);
    index = { paths, files: new Set(paths), dirs: new Set(parents.flat()), parents };
    indexes.set(files, index);
  }
  return index;
}

function meets(a: readonly WorkingSetFile[], b: readonly WorkingSetFile[]): boolean {
  const x = indexOf(a);
  const y = indexOf(b);
  for (let i = 0; i < y.paths.length; i++) {
    const path = y.paths[i]!;
    if (x.files.has(path) || x.dirs.has(path)) return true;
    if (y.parents[i]!.some((dir) => x.files.has(dir))) return true;
  }
  return false;
}

/** `x` moved a file out of directory D; `y` touches something directly in D. */
function renamedDirMeets(x: readonly WorkingSetFile[], y: readonly WorkingSetFile[]): boolean {
  if (!x.some((entry) => entry.path !== undefined && entry.path !== entry.file)) return false;
  const moved = new Set(x.filter((entry) => entry.path !== undefined && dirOf(entry.path) !== dirOf(entry.file)).map((entry) => dirOf(entry.file)));
  if (moved.size === 0) return false;
  return indexOf(y).paths.some((path) => moved.has(dirOf(path)));
}

function pathsOf(entry: WorkingSetFile): string[] {
  return entry.path !== undefined && entry.path !== entry.file ? [entry.file, entry.path] : [entry.file];
}

function dirOf(path: string): string {
  const at = path.lastIndexOf('/');
  return at < 0 ? '' : path.slice(0, at);
}

function parentDirs(path: string): string[] {
  const parts = path.split('/');
  return parts.slice(1).map((_, index) => parts.slice(0, index + 1).join('/'));
}
