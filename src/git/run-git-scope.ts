import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the git processes of one run share besides its signal (src/git/run-signal.ts):
 * - the pinned environment. Copying `process.env` costs a call into the runtime per variable, and a
 *   run starts 20 or more git processes; within a run the environment does not change (nothing in
 *   src/ writes process.env), so it is built once per run and per `inheritRepoEnv`. Outside a run
 *   scope (a library call, a test that sets process.env between calls) it is built per call, as
 *   before, so a change to process.env is always seen by the next call outside a run.
 * - long-lived git processes (the object reader of src/git/object-session.ts), opened on first use
 *   and closed when the run ends, so the CLI's event loop has nothing left to wait for.
 * A nested scope (a channel's share of the budget, src/run/beacon-traffic.ts) keeps the run's.
 */
export interface Closable {
  close(): void;
}

interface RunGitScope {
  /** The run's signal: a long-lived process is killed when it aborts. */
  readonly signal: AbortSignal;
  readonly envs: Map<string, NodeJS.ProcessEnv>;
  readonly resources: Map<string, Closable>;
  ended: boolean;
}

const scope = new AsyncLocalStorage<RunGitScope>();

/** Runs `fn` as one run's git scope; every resource opened inside it is closed when `fn` settles. */
export async function withRunGitScope<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
  const store: RunGitScope = { signal, envs: new Map(), resources: new Map(), ended: false };
  try {
    return await scope.run(store, fn);
  } finally {
    store.ended = true;
    for (const resource of store.resources.values()) resource.close();
    store.resources.clear();
  }
}

/** The run's copy of an environment built by `build`, or a fresh one outside a run. */
export function runEnvironment(key: string, build: () => NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const store = scope.getStore();
  if (store === undefined || store.ended) return build();
  let env = store.envs.get(key);
  if (env === undefined) {
    env = Object.freeze(build());
    store.envs.set(key, env);
  }
  return env;
}

/**
 * The run's resource under `key`, opened by `open` on first use; undefined outside a run (or after
 * it ended, or once its signal aborted), where the caller does the work without one. `forget`
 * drops a resource that ended on its own (its process died): the next use opens a new one.
 */
export function runResource<T extends Closable>(key: string, open: (signal: AbortSignal, forget: () => void) => T): T | undefined {
  const store = scope.getStore();
  if (store === undefined || store.ended || store.signal.aborted) return undefined;
  let resource = store.resources.get(key) as T | undefined;
  if (resource === undefined) {
    const opened: T = open(store.signal, () => {
      if (store.resources.get(key) === opened) store.resources.delete(key);
    });
    resource = opened;
    store.resources.set(key, resource);
  }
  return resource;
}
