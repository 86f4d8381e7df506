import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Where the shims would find the CLI, in their order: the worktree's node_modules/.bin, PATH,
 * then the main worktree's node_modules (next to the common git dir). Null: the hooks would
 * let everything through with a "not installed" line.
 */
export function findCli(toplevel: string, commonDir: string, env: NodeJS.ProcessEnv): string | null {
  const candidates = [
    join(toplevel, 'node_modules', '.bin', 'airspace-hooks'),
    ...(env.PATH ?? '')
      .split(delimiter)
      .filter((dir) => dir !== '')
      .map((dir) => join(dir, 'airspace-hooks')),
    join(commonDir, '..', 'node_modules', '.bin', 'airspace-hooks'),
  ];
  return candidates.find(isExecutable) ?? null;
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
