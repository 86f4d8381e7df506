/**
 * Where airspace-hooks keeps its own files: `<git-dir>/airspace/` for what belongs to one worktree
 * (its intent, its inbox) and `<common-dir>/airspace/` for what all worktrees of the repository
 * share (the risk history). In the main worktree both are `.git`; in a linked worktree the git
 * dir is `.git/worktrees/<name>`. Nothing here touches the index, the working tree or any ref.
 */
import { join } from 'node:path';
import { AirspaceError } from '../errors.js';
import { git } from '../git/exec-git.js';
import { gitMessages } from '../messages/command-line.js';

export const STATE_FOLDER = 'airspace';

export interface StateDirs {
  /** This worktree's git dir (absolute). */
  readonly gitDir: string;
  /** The repository's common dir (absolute), shared by all worktrees. */
  readonly commonDir: string;
}

export async function resolveStateDirs(cwd: string, options: { inheritRepoEnv?: boolean } = {}): Promise<StateDirs> {
  // --path-format=absolute (git ≥ 2.31): --git-common-dir is otherwise relative to the cwd.
  const out = await git(['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir'], {
    cwd,
    ...(options.inheritRepoEnv !== undefined ? { inheritRepoEnv: options.inheritRepoEnv } : {}),
  });
  const [gitDir, commonDir] = out.split('\n');
  if (!gitDir || !commonDir) throw new AirspaceError('git', 'no-git-dir', gitMessages.noGitDirs);
  return { gitDir, commonDir };
}

/** `<dir>/airspace/<name>` */
export function stateFile(dir: string, name: string): string {
  return join(dir, STATE_FOLDER, name);
}
