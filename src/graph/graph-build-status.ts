import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../fs/atomic-write.js';
import { isLockLive, readBuildLock } from './graph-build-lock.js';

/**
 * Progress of the background graph build, readable by any process (hooks, `check`, `doctor`):
 * the builder rewrites a small JSON file after each batch; whether a build is RUNNING comes from
 * the lock (a status file left by a killed builder says "building" forever otherwise).
 */

export interface GraphBuildProgress {
  readonly pid: number;
  readonly startedAt: number;
  readonly updatedAt: number;
  /** Files read so far / to read in this build (0 / 0 while listing and loading). */
  readonly done: number;
  readonly total: number;
  /** Set when the build ended: 'done', or 'failed' with a one-line reason. */
  readonly outcome?: 'done' | 'failed';
  readonly error?: string;
  /** The build holds the lock and waits for the process that asked to exit before it reads anything. */
  readonly waitingFor?: number;
}

export type GraphBuildStatus =
  | { readonly state: 'building'; readonly pid: number; readonly startedAt: number; readonly done: number; readonly total: number }
  | { readonly state: 'failed'; readonly at: number; readonly error: string }
  | { readonly state: 'idle' };

export function buildStatusPath(commonDir: string): string {
  return join(commonDir, 'airspace', 'graph-build.json');
}

/** Atomic (temp file + rename): a reader never sees half a status. Failures are not the build's problem. */
export function writeBuildProgress(commonDir: string, progress: GraphBuildProgress): void {
  try {
    writeFileAtomicSync(buildStatusPath(commonDir), JSON.stringify(progress));
  } catch {
    // Nothing to undo: the temp file is gone and the old status stays.
  }
}

function readProgress(commonDir: string): Partial<GraphBuildProgress> | undefined {
  try {
    const data = JSON.parse(readFileSync(buildStatusPath(commonDir), 'utf8')) as unknown;
    return data !== null && typeof data === 'object' ? (data as Partial<GraphBuildProgress>) : undefined;
  } catch {
    return undefined;
  }
}

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0);

/** What the background build is doing now. `now` is the caller's clock (lock age). */
export function readGraphBuildStatus(commonDir: string, now: number = Date.now()): GraphBuildStatus {
  const lock = readBuildLock(commonDir);
  const progress = readProgress(commonDir);
  if (lock !== undefined && isLockLive(lock, now)) {
    // The progress file may still be the previous build's: only trust counts from this builder.
    const mine = progress?.pid === lock.pid && progress.outcome === undefined;
    return { state: 'building', pid: lock.pid, startedAt: lock.startedAt, done: mine ? count(progress.done) : 0, total: mine ? count(progress.total) : 0 };
  }
  if (progress?.outcome === 'failed')
    return { state: 'failed', at: count(progress.updatedAt), error: typeof progress.error === 'string' ? oneLine(progress.error) : 'unknown' };
  return { state: 'idle' };
}

/** The file is written by another process under .git: printable characters only, one short line. */
function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this pattern finds
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g, ' ').slice(0, 300);
}
