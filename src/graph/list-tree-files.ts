import { runGit } from '../git/exec-git.js';
import { nulRecords, type RepoFiles } from './list-repo-files.js';
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
  const { stdout } = await runGit(['ls-tree', '-r', '-z', '--full-tree', '--end-of-options', treeish], { cwd: toplevel });
  const sources = new Map<string, string>();
  const configs = new Map<string, string>();
  // `<mode> SP <type> SP <id> TAB <path> NUL`
  for (const { start, tab, end } of nulRecords(stdout)) {
    const mode = stdout.toString('latin1', start, start + 6);
    if (mode === GITLINK || mode === SYMLINK) continue;
    const path = stdout.toString('utf8', tab + 1, end);
    const target = isSourcePath(path) ? sources : isResolutionConfigPath(path) ? configs : undefined;
    target?.set(path, stdout.toString('latin1', stdout.lastIndexOf(32, tab) + 1, tab));
  }
  return { sources, configs };
}
