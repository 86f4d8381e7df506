import type { AirspaceReport } from '../report/check-report.js';
import { ignoredPath, watchPaths, type WatchPaths } from './watch-paths.js';

export type { Link } from '../engine/types.js';

/**
 * The loop behind `watch`: one scan now, then one scan after every burst of file changes in any
 * worktree (or a commit, checkout, fetch or beacon in the git dir) once `debounceMs` of quiet
 * has passed. Never two scans at once: changes during a scan schedule exactly one more. Each
 * scan goes through the same snapshot cache as the hooks (src/git/snapshot-cache.ts), so the
 * next hook finds its peers' snapshots warm. Worktrees added while watching are picked up
 * after the next scan. Resolves once `signal` is aborted, the watcher is closed and the scan in
 * flight has ended (the caller passes the same signal to the scan, which then kills its git
 * processes).
 *
 * The watcher is chokidar, chosen by measurement (docs/decisions/watch.md); it loads here only.
 */
export interface WatchOptions {
  readonly cwd: string;
  readonly debounceMs: number;
  readonly signal: AbortSignal;
  readonly scan: () => Promise<AirspaceReport>;
  readonly onReport: (report: AirspaceReport) => void;
  readonly onError: (error: unknown) => void;
}

export async function watchAirspace(options: WatchOptions): Promise<void> {
  const { signal } = options;
  let paths: WatchPaths = await watchPaths(options.cwd);
  const { watch } = await import('chokidar');
  const watcher = watch([...paths.worktrees, paths.commonDir], { ignoreInitial: true, ignored: (path: string) => ignoredPath(path, paths) });
  const ready = new Promise<void>((resolve) => watcher.once('ready', resolve));

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let dirty = false;
  const schedule = () => {
    if (signal.aborted) return;
    clearTimeout(timer);
    timer = setTimeout(start, options.debounceMs);
  };
  const start = () => {
    if (running !== null) {
      dirty = true;
      return;
    }
    running = scanOnce().finally(() => {
      running = null;
      if (dirty && !signal.aborted) {
        dirty = false;
        schedule();
      }
    });
  };
  const scanOnce = async () => {
    try {
      const report = await options.scan();
      if (signal.aborted) return;
      options.onReport(report);
      const next = await watchPaths(options.cwd);
      const added = next.worktrees.filter((path) => !paths.worktrees.includes(path));
      paths = next;
      if (added.length > 0) watcher.add(added);
    } catch (error) {
      if (!signal.aborted) options.onError(error);
    }
  };

  watcher.on('all', schedule);
  watcher.on('error', (error) => options.onError(error));
  await ready;
  start();
  await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
  clearTimeout(timer);
  await watcher.close();
  await running;
}
