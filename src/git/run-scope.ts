import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The ambient scope of one run (one hook, one command): what every git process it starts shares,
 * however deep in the layers. Threading these through every function between the run layer and
 * `runGit` would touch forty signatures and miss the next one added, so one AsyncLocalStorage
 * carries them (docs/decisions/budgets.md):
 * - the cancellation signal. A run owns one AbortController; every git process it starts must die
 *   when that controller aborts, and `runGit` reads the ambient signal when its caller passed none.
 *   A channel's share of the budget (src/run/beacon-traffic.ts, src/symbols/symbol-channel.ts) is
 *   a narrower signal for what runs inside `withRunSignal`: it keeps everything else of the run.
 * - a deadline check. A budget's timer fires only when the event loop is free, and a run that
 *   starts ten git processes in one synchronous burst keeps it busy for 30-50 ms per spawn on a
 *   loaded machine (measured in docs/decisions/budgets.md): the check lets every git call abort the
 *   run the moment its deadline has passed, instead of after the burst.
 * - the pinned environment. Copying `process.env` costs a call into the runtime per variable, and
 *   a run starts 20 or more git processes; within a run the environment does not change (nothing
 *   in src/ writes process.env), so it is built once per run and per `inheritRepoEnv`. Outside a
 *   run (a library call, a test that sets process.env between calls) it is built per call, so a
 *   change to process.env is always seen by the next call outside a run.
 * - long-lived git processes (the object reader of src/git/object-session.ts), opened on first use
 *   with the run's own signal (a narrower one does not end them) and closed when the run ends, so
 *   the CLI's event loop has nothing left to wait for.
 */
export interface Closable {
  close(): void;
}

/** What one run's git processes share; a narrower signal inside the run keeps it. */
interface RunShared {
  /** The run's signal: a long-lived process is killed when it aborts. */
  readonly signal: AbortSignal;
  readonly envs: Map<string, NodeJS.ProcessEnv>;
  readonly resources: Map<string, Closable>;
  ended: boolean;
}

interface RunScope {
  /** The narrowest signal in force: the run's, or a channel's share of it. */
  readonly signal: AbortSignal;
  readonly checkDeadline: (() => void) | undefined;
  /** Absent for a signal scope outside any run. */
  readonly run: RunShared | undefined;
}

const scope = new AsyncLocalStorage<RunScope>();

/**
 * Runs `fn` as one run: `signal` its ambient signal, `checkDeadline` run by every read of it, and
 * every resource opened inside it closed when `fn` settles.
 */
export async function withRunScope<T>(signal: AbortSignal, fn: () => Promise<T>, checkDeadline?: () => void): Promise<T> {
  const run: RunShared = { signal, envs: new Map(), resources: new Map(), ended: false };
  try {
    return await scope.run({ signal, checkDeadline, run }, fn);
  } finally {
    run.ended = true;
    for (const resource of run.resources.values()) resource.close();
    run.resources.clear();
  }
}

/**
 * Runs `fn` with a narrower ambient signal (a channel's share of the budget), keeping the run's
 * environment, resources and (unless given one) deadline check; outside a run, a signal only.
 */
export function withRunSignal<T>(signal: AbortSignal, fn: () => Promise<T>, checkDeadline?: () => void): Promise<T> {
  const outer = scope.getStore();
  return scope.run({ signal, checkDeadline: checkDeadline ?? outer?.checkDeadline, run: outer?.run }, fn);
}

/** The ambient signal, after the scope's deadline check had its chance to abort it. */
export function currentRunSignal(): AbortSignal | undefined {
  const current = scope.getStore();
  current?.checkDeadline?.();
  return current?.signal;
}

/** The run's copy of an environment built by `build`, or a fresh one outside a run. */
export function runEnvironment(key: string, build: () => NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const run = scope.getStore()?.run;
  if (run === undefined || run.ended) return build();
  let env = run.envs.get(key);
  if (env === undefined) {
    env = Object.freeze(build());
    run.envs.set(key, env);
  }
  return env;
}

/**
 * The run's resource under `key`, opened by `open` on first use; undefined outside a run (or after
 * it ended, or once its signal aborted), where the caller does the work without one. `forget`
 * drops a resource that ended on its own (its process died): the next use opens a new one.
 */
export function runResource<T extends Closable>(key: string, open: (signal: AbortSignal, forget: () => void) => T): T | undefined {
  const run = scope.getStore()?.run;
  if (run === undefined || run.ended || run.signal.aborted) return undefined;
  let resource = run.resources.get(key) as T | undefined;
  if (resource === undefined) {
    const opened: T = open(run.signal, () => {
      if (run.resources.get(key) === opened) run.resources.delete(key);
    });
    resource = opened;
    run.resources.set(key, resource);
  }
  return resource;
}
