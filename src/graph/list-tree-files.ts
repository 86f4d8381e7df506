import { runGit } from '../git/exec-git.js';
import type { RepoFiles } from './list-repo-files.js';
import { isResolutionConfigPath, isSourcePath } from './source-files.js';

const GITLINK = '160000';
const SYMLINK = '120000';

/**
 * The worktree's source files and content ids from a tree that already holds the worktree's
 * content: the ownship's snapshot commit (or HEAD when clean), which the git layer made from
 * `git status` moments ago. ONE `ls-tree` instead of `ls-files -s` + `ls-files -m -d -o` +
 * `hash-object`: the snapshot has hashed the dirty files already, with git's own clean filters.
 */
export async function listTreeFiles(toplevel: string, treeish: string): Promise<RepoFiles> {
  const { stdout } = await runGit(['ls-tree', '-r', '-z', '--full-tree', treeish], { cwd: toplevel });
  const sources = new Map<string, string>();
  const configs = new Map<string, string>();
  // `<mode> SP <type> SP <id> TAB <path> NUL`; fields decoded one by one (see parseStaged: slices
  // of one big string make later Map lookups slower).
  let start = 0;
  while (start < stdout.length) {
    let end = stdout.indexOf(0, start);
    if (end < 0) end = stdout.length;
    const tab = stdout.indexOf(9, start);
    if (tab > start && tab < end) {
      const mode = stdout.toString('latin1', start, start + 6);
      const path = stdout.toString('utf8', tab + 1, end);
      if (mode !== GITLINK && mode !== SYMLINK) {
        const target = isSourcePath(path) ? sources : isResolutionConfigPath(path) ? configs : undefined;
        target?.set(path, stdout.toString('latin1', stdout.lastIndexOf(32, tab) + 1, tab));
      }
    }
    start = end + 1;
  }
  return { sources, configs };
}
