import { setPriority } from 'node:os';
import { isProcessAlive } from '../fs/lock-file.js';
import { acquireBuildLock, releaseBuildLock } from './graph-build-lock.js';
import { writeBuildProgress } from './graph-build-status.js';
import { loadImportGraph } from './load-import-graph.js';
import type { LoadedGraph } from './types.js';

/**
 * The body of the background build (`airspace-hooks graph build --background`): takes the lock
 * (or returns at once when another build holds it), lowers its own priority so the user's commits
 * keep the CPU (git children inherit it), refreshes the shared cache with no budget, saving every
 * CHECKPOINT_FILES so a killed build resumes where it stopped, and publishes its progress for
 * `readGraphBuildStatus`.
 */
export interface BackgroundBuildOptions {
  readonly toplevel: string;
  readonly commonDir: string;
  /** Lower the CPU priority (the background case); a foreground `graph build` keeps its own. */
  readonly nice: boolean;
  /** Read every file again (`graph build --force`), not only what changed. */
  readonly force?: boolean;
  /**
   * The process that asked (a hook): the build holds the lock but reads nothing until it has
   * exited, at most REQUESTER_WAIT_MS. Started beside a first push in a fresh clone, the build's
   * start-up and cruise competed with the hook for the same cores: the busiest pusher's cold
   * pre-push took 2.43–2.44 s against 2.06–2.23 s with no build (docs/decisions/import-graph.md).
   */
  readonly afterPid?: number;
  readonly now?: () => number;
}

export type BackgroundBuildResult = { readonly ran: false } | { readonly ran: true; readonly graph: LoadedGraph };

export const CHECKPOINT_FILES = 1000;
/** A requester still alive after this long is not a hook (the resident asks too): the build starts anyway. */
export const REQUESTER_WAIT_MS = 10_000;
/** Lowest priority on Unix (19); Windows maps it to its idle class. */
const NICE = 19;

export async function runBackgroundGraphBuild(options: BackgroundBuildOptions): Promise<BackgroundBuildResult> {
  const now = options.now ?? Date.now;
  const startedAt = now();
  if (!acquireBuildLock(options.commonDir, startedAt)) return { ran: false };
  if (options.nice) {
    try {
      setPriority(NICE);
    } catch {
      // not permitted here: build at normal priority rather than not at all
    }
  }
  const progress = { pid: process.pid, startedAt, updatedAt: startedAt, done: 0, total: 0 };
  let lastWrite = 0;
  try {
    if (options.afterPid !== undefined && options.afterPid !== process.pid) {
      writeBuildProgress(options.commonDir, { ...progress, waitingFor: options.afterPid });
      await untilExited(options.afterPid, REQUESTER_WAIT_MS);
    }
    writeBuildProgress(options.commonDir, progress);
    const graph = await loadImportGraph(options.toplevel, options.commonDir, {
      refresh: options.force ? 'force' : 'auto',
      checkpointEvery: CHECKPOINT_FILES,
      now,
      onProgress: (event) => {
        if (event.phase !== 'cruise') return;
        const at = now();
        // Batches end every few hundred files; the file is rewritten at most twice a second.
        if (at - lastWrite < 500 && event.done !== event.total) return;
        lastWrite = at;
        writeBuildProgress(options.commonDir, { ...progress, updatedAt: at, done: event.done ?? 0, total: event.total ?? 0 });
      },
    });
    writeBuildProgress(options.commonDir, { ...progress, updatedAt: now(), done: graph.filesCruised, total: graph.filesCruised, outcome: 'done' });
    return { ran: true, graph };
  } catch (error) {
    writeBuildProgress(options.commonDir, { ...progress, updatedAt: now(), outcome: 'failed', error: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    releaseBuildLock(options.commonDir);
  }
}

/** Resolves once `pid` has exited (or is a zombie waiting to be reaped), or after `limitMs`. */
async function untilExited(pid: number, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline && isProcessAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
}
