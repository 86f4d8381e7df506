import type { ChildProcess } from 'node:child_process';

/**
 * How a git process ends, so that a budget holds against anything git starts (docs/decisions/budgets.md).
 *
 * git starts other programs: ssh and remote helpers, clean/smudge filters, credential helpers,
 * hooks. They inherit git's stderr (and sometimes stdout), which are our pipes, and some outlive
 * git: ssh's ControlPersist master stays for minutes, a filter keeps running when git is killed.
 * Node's `close` waits until every holder of a pipe has closed it, so settling on `close` let any
 * of them hold a run (and the process, which cannot exit with an open pipe) for as long as it
 * lives. Hence:
 * - every git process leads its own process group (`detached`: setsid), so a kill reaches what it
 *   started, whether or not git itself is still alive;
 * - a git process is done on `exit` plus a short drain of the pipes: everything git wrote is in
 *   the pipe by then, and a pipe still open after the drain is held by something git left behind,
 *   which is killed with the group; the pipes are then destroyed, so nothing of ours waits on them;
 * - a stop (budget, abort, timeout, output cap) kills the whole group and settles at once;
 * - a process `exit` handler, and SIGINT/SIGTERM/SIGHUP, kill every group still running.
 * A program that leaves the group itself (setsid, a daemonizing ssh master) cannot be killed from
 * here; it can no longer hold the run, which is the promise.
 */

/** Process groups are POSIX; on Windows `detached` means a new console, and a kill ends git alone. */
const OWN_GROUP = process.platform !== 'win32';

/**
 * How long the pipes may stay open after git exited. git's output is already in the pipe when it
 * exits (at most one pipe buffer per pipe); the drain ends with a poll of the event loop (the
 * setImmediate after the timer) that reads whatever is waiting, even if the timer fired late.
 */
const DRAIN_MS = 50;

/** Spawn options that make git the leader of its own process group. */
export const groupSpawnOptions = { detached: OWN_GROUP, windowsHide: true } as const;

export interface GitEnd {
  /** Exit code, null when git died of a signal (or was stopped before it exited). */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** git could not be started (not installed, cwd gone). */
  readonly error?: NodeJS.ErrnoException;
}

export interface WatchedGit {
  /** Kills the whole group now (even after git exited) and settles at once. */
  stop(): void;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) killGroup(child);
});

/**
 * A group of its own no longer gets the terminal's Ctrl-C (it goes to the foreground group: git,
 * the hook, node), so a signal that ends node must end the groups too. Listened to only while a
 * git process runs, and first: when someone else handles the signal (a command's interrupt, which
 * aborts its run), the groups are killed and they go on; when nobody does, node dies of it after
 * the kill, as it would have without the listener.
 */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** Set once node is about to die of a signal: a git started in the meantime is killed at once. */
let dying = false;
function onSignal(signal: NodeJS.Signals): void {
  const others = process.listenerCount(signal) - 1;
  for (const child of live) killGroup(child);
  if (others > 0) return;
  dying = true;
  listenToSignals(false);
  process.kill(process.pid, signal);
}
function listenToSignals(on: boolean): void {
  for (const signal of SIGNALS) {
    if (on) process.prependListener(signal, onSignal);
    else process.off(signal, onSignal);
  }
}

function track(child: ChildProcess): void {
  if (dying) {
    killGroup(child);
    return;
  }
  if (OWN_GROUP && live.size === 0) listenToSignals(true);
  live.add(child);
}

function untrack(child: ChildProcess): void {
  if (live.delete(child) && OWN_GROUP && live.size === 0) listenToSignals(false);
}

/**
 * Calls `onEnd` once, when `child` is done: on `close` when every pipe closed, else DRAIN_MS after
 * `exit` (then its group is killed and its pipes destroyed), or at once on `stop()`.
 */
export function watchGit(child: ChildProcess, onEnd: (end: GitEnd) => void): WatchedGit {
  let ended = false;
  let exited: GitEnd | null = null;
  let drain: NodeJS.Timeout | undefined;
  track(child);
  const end = (result: GitEnd, kill: boolean) => {
    if (ended) return;
    ended = true;
    if (drain) clearTimeout(drain);
    untrack(child);
    if (kill) killGroup(child);
    for (const pipe of [child.stdin, child.stdout, child.stderr]) pipe?.destroy();
    onEnd(result);
  };
  child.once('exit', (code, signal) => {
    exited = { code, signal };
    const result = exited;
    drain = setTimeout(() => setImmediate(() => end(result, true)), DRAIN_MS);
  });
  child.once('close', (code: number | null, signal: NodeJS.Signals | null) => end(exited ?? { code, signal }, false));
  // A spawn that failed has no process to wait for.
  child.once('error', (error: NodeJS.ErrnoException) => end({ code: null, signal: null, error }, false));
  return { stop: () => end(exited ?? { code: null, signal: 'SIGKILL' }, true) };
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    // A negative pid signals the whole process group git leads, including what outlived git.
    if (OWN_GROUP) process.kill(-child.pid, 'SIGKILL');
    else if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  } catch {
    // Already gone.
  }
}
