import type { WorkingSetFile } from './working-set.js';

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

function meets(a: readonly WorkingSetFile[], b: readonly WorkingSetFile[]): boolean {
  const filesA = new Set(a.flatMap(pathsOf));
  const dirsA = new Set([...filesA].flatMap(parentDirs));
  for (const path of b.flatMap(pathsOf)) {
    if (filesA.has(path) || dirsA.has(path)) return true;
    if (parentDirs(path).some((dir) => filesA.has(dir))) return true;
  }
  return false;
}

/** `x` moved a file out of directory D; `y` touches something directly in D. */
function renamedDirMeets(x: readonly WorkingSetFile[], y: readonly WorkingSetFile[]): boolean {
  const moved = new Set(x.filter((entry) => entry.path !== undefined && dirOf(entry.path) !== dirOf(entry.file)).map((entry) => dirOf(entry.file)));
  if (moved.size === 0) return false;
  return y.flatMap(pathsOf).some((path) => moved.has(dirOf(path)));
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
