import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { runGit } from './exec-git.js';

/**
 * The files git reads its configuration and ignore rules from, for a run in `cwd`: every file
 * `git config --list --show-origin` names (system, global, the repository's, a worktree's, every
 * included one), the places those could appear that are absent today (a ~/.gitconfig created
 * later), `info/exclude` and the excludes file. A change to any of them can change what `git status`
 * and the discovery read, and none is under a worktree or the watched part of the git dir.
 */
export async function configFiles(cwd: string, gitDir: string, commonDir: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const { stdout } = await runGit(['config', '--list', '--show-origin', '-z'], { cwd });
  const files = new Set<string>();
  let excludes: string | null = null;
  const fields = stdout.toString('utf8').split('\0');
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const origin = fields[i]!;
    const [key, value] = splitOnce(fields[i + 1]!);
    if (origin.startsWith('file:')) files.add(resolve(cwd, origin.slice('file:'.length)));
    if (key.toLowerCase() === 'core.excludesfile' && value !== null) excludes = value;
  }
  const home = env.HOME ?? homedir();
  const xdg = env.XDG_CONFIG_HOME ? env.XDG_CONFIG_HOME : join(home, '.config');
  const expand = (path: string) => (path.startsWith('~/') ? join(home, path.slice(2)) : isAbsolute(path) ? path : resolve(cwd, path));
  for (const candidate of [
    env.GIT_CONFIG_GLOBAL ? expand(env.GIT_CONFIG_GLOBAL) : join(home, '.gitconfig'),
    join(xdg, 'git', 'config'),
    env.GIT_CONFIG_SYSTEM ? expand(env.GIT_CONFIG_SYSTEM) : '/etc/gitconfig',
    join(commonDir, 'config'),
    join(gitDir, 'config.worktree'),
    join(commonDir, 'info', 'exclude'),
    excludes !== null ? expand(excludes) : join(xdg, 'git', 'ignore'),
  ])
    files.add(candidate);
  return [...files].sort();
}

function splitOnce(entry: string): [string, string | null] {
  const at = entry.indexOf('\n');
  return at < 0 ? [entry, null] : [entry.slice(0, at), entry.slice(at + 1)];
}
