import type { ImportGraph } from '../engine/types.js';
import type { GraphWarning } from '../messages/channels.js';
import type { GraphBuildStatus } from './graph-build-status.js';
import type { WorktreeChanges } from './list-repo-files.js';

export type { GraphWarning } from '../messages/channels.js';

/** Progress of a cruise, for the CLI to render (the graph layer never prints). */
export interface GraphProgress {
  readonly phase: 'list' | 'load' | 'cruise' | 'save';
  /** Files read so far / to read, in the 'cruise' phase. */
  readonly done?: number;
  readonly total?: number;
}

export type GraphProgressListener = (event: GraphProgress) => void;

export type GraphRefresh = 'never' | 'auto' | 'force';

export interface LoadGraphOptions {
  /**
   * 'never': the warm path (pre-commit): cache only, dependency-cruiser is not loaded.
   * 'auto': re-read changed files (pre-push, check); a full cruise when there is no cache.
   * 'force': a full rebuild.
   */
  readonly refresh: GraphRefresh;
  /** Wall-clock budget of a refresh; past it the refresh stops, saves what it did, and says stale. */
  readonly budgetMs?: number;
  readonly onProgress?: GraphProgressListener;
  /** The worktree status when the caller already has it (saves one git call). */
  readonly worktreeChanges?: WorktreeChanges;
  /**
   * A commit or tree whose content IS the worktree now (the ownship's snapshot commit, or HEAD when
   * clean): listed with one `ls-tree`, no index read, no status, no hashing. Wins over
   * worktreeChanges.
   */
  readonly worktreeTree?: string;
  /** Clock (epoch ms) for `builtAt`/age; defaults to Date.now. */
  readonly now?: () => number;
  /**
   * Save the cache whenever this many more files were read (a long build that is killed resumes
   * from its last save: every record is valid for its blob id). Default: save once at the end.
   */
  readonly checkpointEvery?: number;
  /**
   * With refresh 'auto' and no cache: cruise now only when the worktree has at most this many
   * source files; a larger one gets the 'never' answer (no graph, `cache-missing`), so a command
   * run by hand waits for a small graph and leaves a large one to the background build.
   */
  readonly coldCruiseMaxFiles?: number;
}

export interface LoadedGraph {
  readonly graph: ImportGraph;
  /** Epoch ms of the cache write this graph comes from; undefined when there is none. */
  readonly builtAt: number | undefined;
  /** Some source files changed since the graph was read and their edges may be out of date. */
  readonly stale: boolean;
  /** How many source files were added, modified or deleted since (after this call's refresh). */
  readonly changedSinceBuild: number;
  /** Where the graph came from: the cache as is, a partial re-read, a full cruise, or nothing. */
  readonly source: 'cache' | 'incremental' | 'full' | 'none';
  /** Files cruised by this call. */
  readonly filesCruised: number;
  readonly warnings: readonly GraphWarning[];
  /** With refresh 'never': the background build this call found running or started (missing or stale graph). */
  readonly background?: GraphBuildStatus;
}

export interface BuiltGraph {
  readonly graph: ImportGraph;
  /** Import specifiers that did not resolve, per file (core modules excluded). */
  readonly unresolved: Readonly<Record<string, readonly string[]>>;
  readonly filesCruised: number;
  readonly warnings: readonly GraphWarning[];
}
