import { join } from 'node:path';
import { detectSetup, isDirectory } from './detect-setup.js';
import { removeShim } from './hooks-dir-shim.js';
import { removeHuskyBlock } from './husky-block.js';
import { managerSnippet } from './manager-snippets.js';
import { packageVersion } from './package-files.js';
import { HOOK_NAMES, type UninstallAction, type UninstallResult } from './types.js';

/**
 * `airspace-hooks uninstall`: undo whatever install did, wherever it did it — the current hooks
 * dir, the default one (core.hooksPath may have changed since), and husky's scripts. Restores the
 * hook we chained, deletes files we created, leaves anything the user edited and says so.
 * `worktree`: only the hooks dir git runs for this worktree (what `install --worktree` joined),
 * so the shared `.git/hooks` of every other worktree stays as it is.
 */
export async function uninstall(cwd: string, options: { readonly worktree?: boolean } = {}): Promise<UninstallResult> {
  const setup = await detectSetup(cwd);
  const actions: UninstallAction[] = [];
  const dirs = options.worktree === true ? [setup.hooksDir] : [...new Set([setup.hooksDir, setup.defaultHooksDir])];
  for (const dir of dirs) {
    for (const hook of HOOK_NAMES) {
      const action = removeShim(dir, hook);
      if (action !== null) actions.push(action);
    }
  }
  if (options.worktree === true) return { version: packageVersion(), actions, manager: null };
  // Also .husky when husky is no longer detected (hooksPath reset, husky removed from package.json).
  const huskyDirs = new Set([setup.husky?.scriptsDir, join(setup.toplevel, '.husky')].filter((dir) => dir !== undefined));
  for (const dir of huskyDirs) {
    if (!isDirectory(dir)) continue;
    for (const hook of HOOK_NAMES) {
      const action = removeHuskyBlock(dir, hook);
      if (action !== null) actions.push(action);
    }
  }
  const snippet = setup.manager === null ? null : managerSnippet(setup.manager.name, setup.manager.configFile, setup.packageManager.name);
  return { version: packageVersion(), actions, manager: snippet?.alreadyConfigured === true ? snippet : null };
}
