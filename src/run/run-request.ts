import type { AirspaceConfig, HookName } from '../config/defaults.js';

/** One line of git's pre-push stdin. */
export interface PushedRef {
  readonly localRef: string;
  readonly localSha: string;
  readonly remoteRef: string;
  readonly remoteSha: string;
}

/**
 * What a caller asks of a run, by purpose. Each purpose carries only what it means; everything the
 * pipeline derives from it (fetch or not, how far the graph may be refreshed, whether state is
 * written, the budget) is decided once, in `planRun`, instead of by flags set at every call site.
 */
export type RunRequest =
  /** The installed pre-commit hook: this worktree, uncommitted work included; no network. */
  | { readonly kind: 'pre-commit'; readonly cwd: string; readonly json?: boolean }
  /** The installed pre-push hook: each pushed ref against that remote's traffic. */
  | {
      readonly kind: 'pre-push';
      readonly cwd: string;
      readonly remote: string | null;
      readonly pushed: readonly PushedRef[];
      readonly json?: boolean;
      /** `git push --dry-run`: judged as any push, and nothing is written to the remote (no beacon, announce or withdrawal). */
      readonly dryRun?: boolean;
    }
  /** `check`: this worktree against all traffic, judged with a hook's settings when `as` is set. */
  | { readonly kind: 'check'; readonly cwd: string; readonly fetch?: boolean; readonly as?: HookName; readonly json?: boolean }
  /** `scan` and `radar`: every pair, or exactly the named `NAME=REV` agents; `at` evaluates a past moment. */
  | {
      readonly kind: 'scan';
      readonly cwd: string;
      readonly agents?: readonly string[];
      readonly at?: number;
      readonly channels?: readonly string[];
      readonly fetch?: boolean;
      readonly embed?: boolean;
      /** Look without leaving a trace: no risk history written (the radar refreshing, the demo's snapshots). */
      readonly readOnly?: boolean;
    }
  /** `beacon publish|clear`: only this agent's own working set and beacon draft. */
  | { readonly kind: 'beacon'; readonly cwd: string; readonly note?: string };

/** Everything the pipeline does differently per purpose, decided in one place. */
export interface RunPlan {
  readonly command: 'check' | 'scan';
  readonly hook: HookName | null;
  readonly fetch: boolean;
  /** Hooks never wait for the import graph: they score with what the cache has (docs/decisions/budgets.md). */
  readonly graphRefresh: 'never' | 'auto';
  /** Hooks read the index git is building (GIT_INDEX_FILE of `git commit -a`). */
  readonly inheritRepoEnv: boolean;
  readonly pairs: 'ownship' | 'all';
  /** Risk history and inbox messages are written (not for past moments or beacon drafts). */
  readonly writeState: boolean;
  /**
   * Draft (and then publish) this agent's beacon: always, or `'refresh'` — only when this clone
   * already published one for it that the fetch saw (a network command keeps a live beacon fresh).
   */
  readonly draftBeacon: boolean | 'refresh';
  /** Beacons of dead lines of work are withdrawn from the remote after a fetch (not for a dry-run push). */
  readonly remoteWrites: boolean;
  readonly embed: boolean;
  readonly channels: readonly string[];
  readonly mode: 'warn' | 'block' | 'off';
  /** Wall-clock budget of the whole run (ms); null = none (interactive commands end on Ctrl-C). */
  readonly budgetMs: number | null;
  readonly failClosed: boolean;
}

export function planRun(request: RunRequest, config: AirspaceConfig): RunPlan {
  const base = {
    command: 'check' as const,
    hook: null,
    fetch: false,
    graphRefresh: 'auto' as const,
    inheritRepoEnv: false,
    pairs: 'ownship' as const,
    writeState: true,
    draftBeacon: false,
    remoteWrites: true,
    embed:
      request.kind === 'scan'
        ? (request.embed ?? true)
        : request.kind !== 'pre-commit' && request.kind !== 'pre-push' && request.kind !== 'beacon' && request.json === true,
    channels: config.channels,
    mode: 'block' as const,
    budgetMs: null,
    failClosed: false,
  };
  switch (request.kind) {
    case 'pre-commit':
    case 'pre-push': {
      const settings = config.hooks[request.kind];
      const dryRun = request.kind === 'pre-push' && request.dryRun === true;
      return {
        ...base,
        hook: request.kind,
        fetch: settings.fetch,
        graphRefresh: 'never',
        inheritRepoEnv: true,
        draftBeacon: dryRun ? false : settings.publishBeacon,
        remoteWrites: !dryRun,
        embed: request.json === true,
        mode: settings.mode,
        budgetMs: settings.budgetMs,
        failClosed: settings.failClosed,
      };
    }
    case 'check': {
      const settings = request.as ? config.hooks[request.as] : null;
      return {
        ...base,
        hook: request.as ?? null,
        fetch: request.fetch ?? settings?.fetch ?? false,
        draftBeacon: (request.fetch ?? settings?.fetch ?? false) ? 'refresh' : false,
        graphRefresh: request.as === 'pre-commit' ? 'never' : 'auto',
        mode: settings?.mode ?? 'block',
      };
    }
    case 'scan':
      return {
        ...base,
        command: 'scan',
        fetch: request.fetch ?? false,
        pairs: 'all',
        writeState: request.at === undefined && request.readOnly !== true,
        channels: request.channels ?? config.channels,
        mode: 'warn',
      };
    case 'beacon':
      return { ...base, graphRefresh: 'never', writeState: false, draftBeacon: true, embed: false, channels: [], mode: 'warn' };
  }
}
