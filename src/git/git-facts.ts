import { git, runGit } from './exec-git.js';
import { isBranchName } from './ref-names.js';

/** The installed git's version, e.g. `2.39.5`. */
export async function gitVersion(cwd: string): Promise<string> {
  return (await git(['--version'], { cwd })).replace(/^git version /, '');
}

/** Whether the repository has a remote of that name. */
export async function hasRemote(cwd: string, remote: string): Promise<boolean> {
  const result = await runGit(['remote', 'get-url', '--', remote], { cwd, okCodes: [2, 128] });
  return result.code === 0;
}

/** Whether `refs/heads/<branch>` exists (a name that is no branch name never does). */
export async function hasLocalBranch(cwd: string, branch: string): Promise<boolean> {
  if (!isBranchName(branch)) return false;
  const result = await runGit(['rev-parse', '-q', '--verify', '--end-of-options', `refs/heads/${branch}`], { cwd, okCodes: [1, 128] });
  return result.code === 0;
}
