import { isCi } from './ci-environment.js';
import { existsSync } from 'node:fs';
import { detectSetup, huskySetupCommand } from './detect-setup.js';
import { installShim, shimState } from './hooks-dir-shim.js';
import { addHuskyBlock } from './husky-block.js';
import { managerSnippet } from './manager-snippets.js';
import { packageVersion } from './package-files.js';
import { HOOK_NAMES, type HookAction, type InstallOptions, type InstallResult } from './types.js';

/**
 * `airspace-hooks install`: pick the one way hooks run in this repository and join it.
 *   husky active            → our block in .husky/<hook> (husky owns core.hooksPath)
 *   lefthook / pre-commit / simple-git-hooks → the snippet to add; their files stay untouched
 *   husky set up, not active → our block anyway; doctor says to run husky
 *   foreign core.hooksPath  → refuse (someone else owns that dir) unless force or `worktree`
 *                              (then join it: shims there, its hooks kept and run first)
 *   otherwise               → shims in `git rev-parse --git-path hooks`, shared by all worktrees
 * Running it twice changes nothing the second time.
 */
export async function install(cwd: string, options: InstallOptions = {}): Promise<InstallResult> {
  const setup = await detectSetup(cwd);
  const force = options.force === true;
  const hooks = options.hooks ?? HOOK_NAMES;
  const base = {
    version: packageVersion(),
    hooksPath: setup.hooksPath,
    manager: null,
    huskyInactive: false,
    huskyRuntimeMissing: false,
    huskyFix: null,
    forced: false,
    packageManager: setup.packageManager,
  };
  const ci = options.ci ?? isCi(process.env);
  if (ci && !force) {
    return { ...base, outcome: 'skipped-ci', ok: true, strategy: 'none', hooksDir: null, hooks: [] };
  }
  const forcedByCi = ci;

  const husky = setup.husky;
  if (husky !== null && (husky.active || setup.manager === null)) {
    const actions = hooks.map((hook) => addHuskyBlock(husky.scriptsDir, hook, force));
    return {
      ...base,
      outcome: 'installed',
      ok: allFine(actions),
      strategy: 'husky',
      hooksDir: husky.scriptsDir,
      hooks: actions,
      huskyInactive: !husky.active,
      // husky 9 in a fresh linked worktree: core.hooksPath names .husky/_, which is gitignored
      // and so missing here; git then runs no hook at all until husky sets it up in this worktree.
      huskyRuntimeMissing: husky.active && !existsSync(husky.runtimeDir),
      huskyFix: huskySetupCommand(husky.major, setup.packageManager.name),
      forced: forcedByCi,
    };
  }

  if (setup.manager !== null) {
    const manager = managerSnippet(setup.manager.name, setup.manager.configFile, setup.packageManager.name);
    return { ...base, outcome: 'snippet', ok: true, strategy: 'manager', hooksDir: null, hooks: [], manager, forced: forcedByCi };
  }

  // core.hooksPath naming .git/hooks itself is not foreign; our shims already in the foreign dir
  // (an earlier forced install) are not a reason to refuse either.
  const foreign = setup.hooksPath !== null && setup.hooksDir !== setup.defaultHooksDir;
  const ownedAlready = hooks.every((hook) => shimState(setup.hooksDir, hook).ours);
  const joined = options.worktree === true;
  if (foreign && !force && !joined && !ownedAlready) {
    return { ...base, outcome: 'refused-hooks-path', ok: false, strategy: 'none', hooksDir: setup.hooksDir, hooks: [] };
  }
  const actions = hooks.map((hook) => installShim(setup.hooksDir, hook, force));
  return {
    ...base,
    outcome: 'installed',
    ok: allFine(actions),
    strategy: 'hooks-dir',
    hooksDir: setup.hooksDir,
    hooks: actions,
    forced: forcedByCi || (foreign && !ownedAlready && !joined),
    ...(foreign ? { joinedHooksPath: true } : {}),
  };
}

function allFine(actions: readonly HookAction[]): boolean {
  return actions.every((action) => action.kind !== 'conflict' && action.kind !== 'modified-kept' && action.kind !== 'not-a-file');
}
