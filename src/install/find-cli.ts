import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Where a bin of the project is found from a worktree, in the shims' order: the worktree's
 * node_modules/.bin, PATH, then the main worktree's node_modules (next to the common git dir).
 * A linked worktree has no node_modules until someone installs there, and there `npx <bin>` asks
 * the registry (E404 for a package that is not published, a download for one that is): a command
 * we print for that worktree names the main worktree's bin by its path instead.
 */
export type BinSource = 'worktree' | 'path' | 'main-worktree';

export interface FoundBin {
  readonly path: string;
  readonly source: BinSource;
}

export function locateBin(name: string, toplevel: string, commonDir: string, env: NodeJS.ProcessEnv): FoundBin | null {
  const candidates: FoundBin[] = [
    { path: join(toplevel, 'node_modules', '.bin', name), source: 'worktree' },
    ...(env.PATH ?? '')
      .split(delimiter)
      .filter((dir) => dir !== '')
      .map((dir): FoundBin => ({ path: join(dir, name), source: 'path' })),
    { path: join(commonDir, '..', 'node_modules', '.bin', name), source: 'main-worktree' },
  ];
  return candidates.find((candidate) => isExecutable(candidate.path)) ?? null;
}

/** A path as one word of a POSIX shell command. */
export function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

/** The CLI as the shims find it. Null: the hooks would let everything through with a "not installed" line. */
export function findCli(toplevel: string, commonDir: string, env: NodeJS.ProcessEnv): string | null {
  return locateBin('airspace-hooks', toplevel, commonDir, env)?.path ?? null;
}

/** Whether this process may execute `path` (access X_OK). */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
