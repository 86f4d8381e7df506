import { git, runGit } from './exec-git.js';

/** The installed git's version, e.g. `2.39.5`. */
export async function gitVersion(cwd: string): Promise<string> {
  return (await git(['--version'], { cwd })).replace(/^git version /, '');
}

/** Whether the repository has a remote of that name. */
export async function hasRemote(cwd: string, remote: string): Promise<boolean> {
  const result = await runGit(['remote', 'get-url', '--', remote], { cwd, okCodes: [2, 128] });
  return result.code === 0;
}
