import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The cancellation signal of the run a git call belongs to. A run (one hook, one command) owns one
 * AbortController; every git process it starts, however deep in the layers, must die when that
 * controller aborts. Threading a `signal` argument through every function between the run layer and
 * `runGit` would touch forty signatures and miss the next one added, so the run scope carries it:
 * `withRunSignal(signal, fn)` makes it the ambient signal of everything `fn` awaits, and `runGit`
 * reads it when its caller passed none. See docs/decisions/budgets.md.
 */
const scope = new AsyncLocalStorage<AbortSignal>();

export function withRunSignal<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
  return scope.run(signal, fn);
}

export function currentRunSignal(): AbortSignal | undefined {
  return scope.getStore();
}
