import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { runGit } from './exec-git.js';

/**
 * The files git reads its configuration and ignore rules from, for a run in `cwd`: every file
 * `git config --list --show-origin` names (system, global, the repository's, a worktree's, every
 * included one), the places those could appear that are absent today (a ~/.gitconfig created
 * later, the target of an include that is absent or empty: git lists a file only for the entries
 * it gives), `info/exclude` and the excludes file. A change to any of them can change what `git
 * status` and the discovery read, and none is under a worktree or the watched part of the git dir.
 * `inheritRepoEnv`: a hook's GIT_DIR and the like select the repository, as for the run's own git.
 */
export async function configFiles(cwd: string, gitDir: string, commonDir: string, env: NodeJS.ProcessEnv, inheritRepoEnv = false): Promise<string[]> {
  const { stdout } = await runGit(['config', '--list', '--show-origin', '-z'], { cwd, inheritRepoEnv });
  const files = new Set<string>();
  let excludes: string | null = null;
  const fields = stdout.toString('utf8').split('\0');
  const home = env.HOME ?? homedir();
  const xdg = env.XDG_CONFIG_HOME ? env.XDG_CONFIG_HOME : join(home, '.config');
  const expand = (path: string, base = cwd) => (path.startsWith('~/') ? join(home, path.slice(2)) : isAbsolute(path) ? path : resolve(base, path));
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const origin = fields[i]!;
    const [key, value] = splitOnce(fields[i + 1]!);
    const file = origin.startsWith('file:') ? resolve(cwd, origin.slice('file:'.length)) : null;
    if (file !== null) files.add(file);
    if (key.toLowerCase() === 'core.excludesfile' && value !== null) excludes = value;
    // An include's target, relative to the file that names it: listed whether or not it exists or gives anything yet.
    if (/^include(if\..*)?\.path$/i.test(key) && value !== null && value !== '' && file !== null) files.add(expand(value, dirname(file)));
  }
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
