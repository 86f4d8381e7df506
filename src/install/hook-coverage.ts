import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { readHooksPath, type HooksPathSetting } from '../git/hooks-path.js';
import { detectManager, isFile } from './detect-setup.js';
import { readFingerprint } from './fingerprint.js';
import { findCli, isExecutable, locateBin, type FoundBin } from './find-cli.js';
import { BLOCK_START, huskyBlockState } from './husky-block.js';
import { managerSnippet } from './manager-snippets.js';
import { detectPackageManager, type PackageManagerName } from './package-manager.js';

/**
 * Will git run OUR check in this worktree? The question behind every "hold": a peer is advised to
 * steer only if its own pre-push runs airspace-hooks. pre-push is the hook that blocks, so it is the
 * one that decides; a worktree whose pre-commit alone runs us is warned but never stopped.
 *
 * Why a worktree can be unprotected although `install` ran (docs/decisions/hook-coverage.md):
 * `core.hooksPath` set at any config level sends git to another directory — harnesses give each
 * agent worktree its own (`extensions.worktreeConfig` + `git config --worktree core.hooksPath`); a
 * husky or hook manager in charge of the hooks without our block or snippet; husky's generated
 * `.husky/_` missing in a fresh worktree; the CLI not found, so the shim lets everything through.
 */
export type CoverageReason =
  /** No pre-push hook where git looks, and core.hooksPath is unset: nothing installed. */
  | 'nothing-installed'
  /** core.hooksPath sends git to a directory with no pre-push hook. */
  | 'hooks-path-elsewhere'
  /** A pre-push hook is there but does not run airspace-hooks. */
  | 'foreign-hook'
  /** The pre-push hook is not executable: git skips it. */
  | 'hook-not-executable'
  /** husky runs the hooks, but `.husky/pre-push` has no airspace-hooks block. */
  | 'husky-without-airspace'
  /** core.hooksPath names husky's generated `.husky/_`, missing in this worktree (it is gitignored). */
  | 'husky-runtime-missing'
  /** Our block sits after an `exit` in the husky script: it never runs. */
  | 'block-unreachable'
  /** lefthook / pre-commit runs the hooks and its config does not call airspace-hooks. */
  | 'manager-without-airspace'
  /** Our hook is there but cannot find the CLI (no node_modules, not on PATH): it lets everything through. */
  | 'cli-missing';

export interface HookProtection {
  /** git will run airspace-hooks on the next push from this worktree. */
  readonly protected: boolean;
  readonly reason?: CoverageReason;
  /** The directory git runs this worktree's hooks from (absolute). */
  readonly hooksDir: string;
  /** core.hooksPath in effect, and the config level that sets it (when read); absent when unset. */
  readonly hooksPath?: { readonly value: string; readonly scope?: string };
  /**
   * Unprotected only: what the fix line may run in that worktree — its package manager, and the
   * bins as found from there (a linked worktree without node_modules has the main worktree's, where
   * `npx` would ask the registry). src/messages/setup.ts words the commands.
   */
  readonly fixWith?: { readonly packageManager: PackageManagerName; readonly cli: FoundBin | null; readonly husky: FoundBin | null };
}

/** Coverage of one worktree: one `git config` process, then a few stats and small reads. */
export async function hookCoverage(worktree: string, commonDir: string, env: NodeJS.ProcessEnv = process.env): Promise<HookProtection> {
  return coverageOfHooksDir(worktree, commonDir, await readHooksPath(worktree), env);
}

/**
 * The ownship's coverage from the hooks dir its one `rev-parse` already resolved
 * (RepoInfo.hooksDir): no process of its own. The config level is not known this way.
 */
export function coverageOfResolvedHooksDir(worktree: string, commonDir: string, hooksDir: string, env: NodeJS.ProcessEnv = process.env): HookProtection {
  const hooksPath = hooksDir === join(commonDir, 'hooks') ? null : { value: hooksDir };
  return coverageOfHooksDir(worktree, commonDir, hooksPath, env);
}

/** The same, once core.hooksPath is known (file system only). */
export function coverageOfHooksDir(
  worktree: string,
  commonDir: string,
  hooksPath: (Pick<HooksPathSetting, 'value'> & Partial<Pick<HooksPathSetting, 'scope'>>) | null,
  env: NodeJS.ProcessEnv,
): HookProtection {
  // git runs hooks from the top of the worktree, so a relative hooksPath is relative to it.
  const hooksDir = hooksPath === null ? join(commonDir, 'hooks') : resolve(worktree, hooksPath.value);
  const setting = hooksPath === null ? {} : { hooksPath: { value: hooksPath.value, ...(hooksPath.scope !== undefined ? { scope: hooksPath.scope } : {}) } };
  const base = { hooksDir, ...setting };
  const reason = pushHookReason(worktree, commonDir, hooksDir, hooksPath !== null, env);
  if (reason === null) return { ...base, protected: true };
  const fixWith = {
    packageManager: detectPackageManager(worktree).name,
    cli: locateBin('airspace-hooks', worktree, commonDir, env),
    husky: locateBin('husky', worktree, commonDir, env),
  };
  return { ...base, protected: false, reason, fixWith };
}

function pushHookReason(worktree: string, commonDir: string, hooksDir: string, hooksPathSet: boolean, env: NodeJS.ProcessEnv): CoverageReason | null {
  const huskyRuntime = basename(hooksDir) === '_' && (basename(dirname(hooksDir)) === '.husky' || isFile(join(hooksDir, 'h')));
  const hook = join(hooksDir, 'pre-push');
  const text = readText(hook);
  if (text === null) {
    if (huskyRuntime && !isFile(join(hooksDir, 'h'))) return 'husky-runtime-missing';
    return hooksPathSet ? 'hooks-path-elsewhere' : 'nothing-installed';
  }
  if (!isExecutable(hook)) return 'hook-not-executable';
  const runs = runsAirspace(worktree, hooksDir, text, huskyRuntime);
  if (runs !== null) return runs;
  // Every way we hook in ends in the CLI; without it the hook prints one line and lets the push through.
  return findCli(worktree, commonDir, env) === null ? 'cli-missing' : null;
}

/** Null when the pre-push hook (text) ends in `airspace-hooks hook pre-push`; else why not. */
function runsAirspace(worktree: string, hooksDir: string, text: string, huskyRuntime: boolean): CoverageReason | null {
  // husky ≤ 8: the hooks dir is .husky itself, and its pre-push carries our block.
  if (text.includes(BLOCK_START)) return huskyBlockState(hooksDir, 'pre-push').unreachable ? 'block-unreachable' : null;
  // Our shim (edited or not, it still calls the CLI).
  if (readFingerprint(text) !== null) return null;
  // husky 9: `.husky/_/pre-push` runs `.husky/pre-push`, where our block goes.
  if (huskyRuntime) {
    const block = huskyBlockState(dirname(hooksDir), 'pre-push');
    if (!block.present) return 'husky-without-airspace';
    return block.unreachable ? 'block-unreachable' : null;
  }
  // simple-git-hooks (and a hand-written hook) put the command into the hook itself.
  if (text.includes('airspace-hooks hook')) return null;
  // lefthook and pre-commit generate a hook that reads their config: the config must call us.
  if (/lefthook|pre-commit\.com|pre_commit/.test(text)) {
    const manager = detectManager(worktree);
    return manager !== null && managerSnippet(manager.name, manager.configFile).alreadyConfigured ? null : 'manager-without-airspace';
  }
  return 'foreign-hook';
}

function readText(path: string): string | null {
  try {
    return statSync(path).isFile() ? readFileSync(path, 'utf8') : null;
  } catch {
    return null;
  }
}
