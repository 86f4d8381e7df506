/**
 * What install, uninstall and doctor found and did, as data. The CLI renders it with
 * src/messages/setup.ts; nothing here prints.
 */
import type { PackageManager } from './package-manager.js';

export type HookName = 'pre-commit' | 'pre-push';
export const HOOK_NAMES: readonly HookName[] = ['pre-commit', 'pre-push'];

/** Hook managers whose files we never edit: we hand the user the snippet instead. */
export type ManagerName = 'lefthook' | 'pre-commit' | 'simple-git-hooks';

export interface InstallOptions {
  /** Install over a foreign `core.hooksPath`, in CI, and over a shim the user edited. */
  readonly force?: boolean;
  /**
   * Join this worktree's own hooks dir when core.hooksPath sends git elsewhere (a harness's, say):
   * our shims go there and the hooks already there are kept and run first, as everywhere else.
   * Unlike `force`, it does not override CI or replace a shim the user edited.
   */
  readonly worktree?: boolean;
  /** Which hooks (default: both). */
  readonly hooks?: readonly HookName[];
  /** Treat the environment as CI (default: detected from the CI variable). */
  readonly ci?: boolean;
}

/** What happened to one hook. `path` is absolute. */
export type HookAction =
  /** No hook there before: our shim written. */
  | { readonly kind: 'written'; readonly hook: HookName; readonly path: string }
  /** A hook was there: kept as `original` and run first by our shim. */
  | { readonly kind: 'chained'; readonly hook: HookName; readonly path: string; readonly original: string }
  /** Our shim of another version (or an older text) replaced by the current one. */
  | { readonly kind: 'updated'; readonly hook: HookName; readonly path: string; readonly fromVersion: string }
  /** Nothing to do: the current shim or block is in place. */
  | { readonly kind: 'already-installed'; readonly hook: HookName; readonly path: string }
  /** Our marked block added to a husky script (`createdFile`: the script did not exist). */
  | { readonly kind: 'husky-block-added'; readonly hook: HookName; readonly path: string; readonly createdFile: boolean }
  /** Our shim or block was edited by the user: left alone (without force). */
  | { readonly kind: 'modified-kept'; readonly hook: HookName; readonly path: string }
  /** Our shim or block was edited by the user and `force` replaced it. */
  | { readonly kind: 'modified-replaced'; readonly hook: HookName; readonly path: string }
  /** A foreign hook sits where our shim should be, and the place for the original is taken too. */
  | { readonly kind: 'conflict'; readonly hook: HookName; readonly path: string; readonly original: string }
  /** Something that is not a file (a directory) sits where the hook goes: nothing written. */
  | { readonly kind: 'not-a-file'; readonly hook: HookName; readonly path: string };

export interface ManagerSnippet {
  readonly manager: ManagerName;
  /** The file the snippet goes into (absolute). */
  readonly configFile: string;
  /** Exact text to add — or, with `replaces`, the merged text that replaces it. */
  readonly snippet: string;
  /**
   * The snippet is the user's own existing block with our commands added (their hooks kept): it
   * replaces that block (e.g. the `"simple-git-hooks"` key of package.json) instead of being added.
   */
  readonly replaces?: string;
  /** Command that makes the manager pick the change up, if any. */
  readonly applyCommand: string | null;
  /** The config already calls `airspace-hooks hook`. */
  readonly alreadyConfigured: boolean;
}

export type InstallOutcome = 'installed' | 'snippet' | 'refused-hooks-path' | 'skipped-ci';

export interface InstallResult {
  readonly outcome: InstallOutcome;
  /** False when the user must act before hooks run (refused, conflict, edited shim kept). */
  readonly ok: boolean;
  readonly version: string;
  readonly strategy: 'hooks-dir' | 'husky' | 'manager' | 'none';
  /** Directory the shims went into, or the husky script directory. */
  readonly hooksDir: string | null;
  /** `core.hooksPath` as configured, if set. */
  readonly hooksPath: string | null;
  readonly hooks: readonly HookAction[];
  readonly manager: ManagerSnippet | null;
  /** Husky scripts got our block but husky is not active in this worktree (core.hooksPath unset). */
  readonly huskyInactive: boolean;
  /** husky is active but its generated runtime dir is missing here (a fresh linked worktree): no hook runs. */
  readonly huskyRuntimeMissing: boolean;
  /** The command that sets husky up in this worktree (`npx husky`, or `npx husky install` for husky ≤ 8). */
  readonly huskyFix: string | null;
  /** Our shims went into a core.hooksPath directory that is not ours (`--worktree` or `force`). */
  readonly joinedHooksPath?: boolean;
  /** Install went ahead only because of `force` (foreign core.hooksPath, or CI). */
  readonly forced: boolean;
  /** The project's package manager: the commands in the output are the ones that run with it. */
  readonly packageManager: PackageManager;
}

export type UninstallAction =
  | { readonly kind: 'shim-removed'; readonly hook: HookName; readonly path: string; readonly restored: string | null }
  | { readonly kind: 'husky-block-removed'; readonly hook: HookName; readonly path: string; readonly deletedFile: boolean }
  /** Ours, but edited by the user: not deleted. */
  | { readonly kind: 'modified-kept'; readonly hook: HookName; readonly path: string }
  /** A saved original whose shim is gone (another tool replaced it): left for the user. */
  | { readonly kind: 'orphan-original'; readonly hook: HookName; readonly path: string };

export interface UninstallResult {
  readonly version: string;
  readonly actions: readonly UninstallAction[];
  /** A hook manager's config still calls us: the user removes the snippet. */
  readonly manager: ManagerSnippet | null;
}

export type FindingLevel = 'ok' | 'warn' | 'error';

export type FindingCode =
  | 'not-installed'
  | 'disabled-by-env'
  | 'shim-installed'
  | 'shim-outdated'
  | 'shim-modified'
  | 'shim-not-executable'
  | 'shim-not-active'
  | 'husky-block-installed'
  | 'husky-block-modified'
  | 'husky-block-unreachable'
  | 'husky-not-active'
  | 'husky-runtime-missing'
  | 'manager-configured'
  | 'manager-not-configured'
  | 'manager-not-active'
  | 'orphan-original'
  | 'cli-missing';

export interface InstallFinding {
  readonly level: FindingLevel;
  readonly code: FindingCode;
  readonly hook?: HookName;
  /** The file or directory concerned (absolute). */
  readonly path?: string;
  /** A fact for the message: a version, the configured hooksPath, a manager name. */
  readonly detail?: string;
  /** For shim-not-active: the config level that sets core.hooksPath (what `git config --<scope> --unset` needs). */
  readonly scope?: string;
  /** For manager findings: what to add. */
  readonly snippet?: ManagerSnippet;
}
