import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { ResidentCompanion } from './resident-server.js';
import type { RunQueue } from './run-queue.js';

/**
 * The continuous part of the resident process: a file watcher over every worktree (and the
 * git dir's HEAD, index and refs) that re-scores a worktree's airspace after a burst of changes in
 * it, in the background of the run queue (a question aborts it and goes first). A re-score is
 * the pre-commit judgement of that worktree: it refreshes the peer snapshot cache the next hook
 * reads, and like every pre-commit it delivers a new TA/RA to the other agent's inbox
 * (src/run/transmit-intent.ts). A change in the git dir belongs to one worktree when it can tell
 * (its HEAD or index, its branch's ref: a commit re-scores the committer, whose run compares it with
 * every peer) and to all of them otherwise (a fetch, packed refs). The watcher and its paths are `watch`'s (src/app/watch-paths.ts), chokidar
 * (docs/decisions/watch.md), loaded here only when the resident starts it.
 */
export interface WatcherPaths {
  readonly commonDir: string;
  readonly worktrees: readonly string[];
}

export interface WatcherOptions {
  readonly listPaths: () => Promise<WatcherPaths>;
  readonly ignored: (path: string, paths: WatcherPaths) => boolean;
  /** Resolves with what the log line should add (the run's stages), if anything. */
  readonly rescore: (worktree: string, signal: AbortSignal) => Promise<string | undefined>;
  readonly queue: RunQueue;
  readonly debounceMs: number;
  readonly log: (line: string) => void;
  /** Told synchronously of every event, before the debounce (src/resident/warm-airspace.ts). */
  readonly onChange?: (path: string) => void;
  /** Told once ready, with which worktrees chokidar watches at any moment. */
  readonly onReady?: (watchedWorktrees: () => readonly string[]) => void;
  /** Told when the watcher can no longer vouch for what it saw: an error, or stopped. */
  readonly onBlind?: () => void;
}

export interface WorktreeWatcher extends ResidentCompanion {
  /** Re-scores `worktree` at the next quiet moment, as if it had changed (a new subscriber's first state). */
  readonly rescoreSoon: (worktree: string) => void;
  readonly worktrees: () => readonly string[];
}

export async function startWorktreeWatcher(options: WatcherOptions): Promise<WorktreeWatcher> {
  let paths = await options.listPaths();
  const { watch } = await import('chokidar');
  const inGitDir = (path: string) => {
    const inGit = relative(paths.commonDir, path);
    return inGit === '' || !inGit.startsWith('..');
  };
  // Worktree files are not watched one by one: chokidar would hold a watcher per file (40,000 at
  // 10,000 files × 4 worktrees: most of the resident's heap, and what its garbage collections
  // walked while idle). Their directory's watcher reports a change with the file's name ('raw'
  // below). The git dir's few files (HEAD, index, refs) are watched as before.
  const watcher = watch([...paths.worktrees, paths.commonDir], {
    ignoreInitial: true,
    ignored: (path: string, stats?: { isFile: () => boolean }) => options.ignored(path, paths) || (stats?.isFile() === true && !inGitDir(path)),
  });
  const dirty = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> | null = null;

  const worktreeOf = (path: string): string | null => {
    const inGit = relative(paths.commonDir, path);
    if (inGit !== '' && !inGit.startsWith('..')) return gitPathOwner(inGit.split(sep), paths);
    // Longest first: a linked worktree may live inside the main one.
    const owner = [...paths.worktrees].sort((a, b) => b.length - a.length).find((w) => path === w || path.startsWith(`${w}${sep}`));
    return owner ?? null;
  };
  const schedule = () => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(drain, options.debounceMs);
  };
  const drain = () => {
    if (running !== null || stopped) return;
    running = (async () => {
      while (dirty.size > 0 && !stopped) {
        const [worktree] = dirty;
        dirty.delete(worktree!);
        const started = performance.now();
        let detail: string | undefined;
        const done = await options.queue
          .runInBackground(async (signal) => {
            detail = await options.rescore(worktree!, signal);
          })
          .catch((error: unknown) => {
            options.log(`re-score of ${worktree} failed: ${(error as Error)?.message ?? String(error)}`);
            return true;
          });
        options.log(
          `re-scored ${worktree}${done ? '' : ' (gave way to a question)'} in ${Math.round(performance.now() - started)} ms${detail ? ` (${detail})` : ''}`,
        );
        // Aborted by a question, or the queue was busy: try again after the next quiet moment.
        if (!done) {
          dirty.add(worktree!);
          break;
        }
      }
      try {
        const next = await options.listPaths();
        const added = next.worktrees.filter((w) => !paths.worktrees.includes(w));
        paths = next;
        if (added.length > 0) watcher.add(added);
      } catch {
        // the repository is going away: the resident's housekeeping ends it
      }
    })().finally(() => {
      running = null;
      if (dirty.size > 0) schedule();
    });
  };

  const changed = (path: string) => {
    options.onChange?.(path);
    const owner = worktreeOf(path);
    for (const worktree of owner !== null ? [owner] : paths.worktrees) dirty.add(worktree);
    schedule();
  };
  watcher.on('all', (_event: string, path: string) => changed(path));
  watcher.on('raw', (_event, name: string | null, details: unknown) => {
    const dir = (details as { watchedPath?: unknown } | null)?.watchedPath;
    if (!name || typeof dir !== 'string') return;
    const path = join(dir, name);
    if (!inGitDir(path) && !options.ignored(path, paths)) changed(path);
  });
  watcher.on('error', (error: unknown) => {
    options.onBlind?.();
    options.log(`watcher: ${(error as Error)?.message ?? String(error)}`);
  });
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  options.log(`watching ${paths.worktrees.length} worktrees`);
  // A worktree counts as watched once chokidar has its directory, not when it is asked to add it.
  options.onReady?.(() => {
    const dirs = new Set(Object.keys(watcher.getWatched()));
    return paths.worktrees.filter((worktree) => dirs.has(worktree));
  });
  return {
    watching: () => paths.worktrees.length,
    worktrees: () => paths.worktrees,
    rescoreSoon: (worktree) => {
      dirty.add(worktree);
      schedule();
    },
    stop: async () => {
      stopped = true;
      options.onBlind?.();
      clearTimeout(timer);
      await watcher.close();
      await running;
    },
  };
}

/**
 * The worktree a path in the common git dir belongs to, read from the git dir itself: the main
 * worktree's HEAD and index, a linked worktree's `worktrees/<name>/{HEAD,index}` (its `gitdir`
 * file names the worktree), and `refs/heads/<branch>` of the worktree that has it checked out.
 * Null for everything else (fetched refs, packed-refs, FETCH_HEAD): every worktree's traffic moved.
 */
function gitPathOwner(parts: readonly string[], paths: WatcherPaths): string | null {
  const read = (path: string) => {
    try {
      return readFileSync(path, 'utf8').trim();
    } catch {
      return null;
    }
  };
  const [first, second] = parts;
  if (parts.length === 1 && (first === 'HEAD' || first === 'index')) return paths.worktrees[0] ?? null;
  if (first === 'worktrees' && second !== undefined && parts.length === 3) {
    const gitdir = read(join(paths.commonDir, 'worktrees', second, 'gitdir'));
    return gitdir !== null && paths.worktrees.includes(dirname(gitdir)) ? dirname(gitdir) : null;
  }
  if (first === 'refs' && second === 'heads') {
    const ref = parts.join('/');
    const headOf = (worktree: string, index: number) => (index === 0 ? read(join(paths.commonDir, 'HEAD')) : read(join(gitDirOf(worktree) ?? '', 'HEAD')));
    return paths.worktrees.find((worktree, index) => headOf(worktree, index) === `ref: ${ref}`) ?? null;
  }
  return null;
}

/** A linked worktree's git dir, from its `.git` file. */
function gitDirOf(worktree: string): string | null {
  try {
    const match = /^gitdir: (.+)$/m.exec(readFileSync(join(worktree, '.git'), 'utf8'));
    return match ? resolve(worktree, match[1]!.trim()) : null;
  } catch {
    return null;
  }
}
