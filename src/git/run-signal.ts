import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The cancellation signal of the run a git call belongs to. A run (one hook, one command) owns one
 * AbortController; every git process it starts, however deep in the layers, must die when that
 * controller aborts. Threading a `signal` argument through every function between the run layer and
 * `runGit` would touch forty signatures and miss the next one added, so the run scope carries it:
 * `withRunSignal(signal, fn)` makes it the ambient signal of everything `fn` awaits, and `runGit`
 * reads it when its caller passed none. See docs/decisions/budgets.md.
 *
 * A scope may also carry a deadline check. A budget's timer fires only when the event loop is free,
 * and a run that starts ten git processes in one synchronous burst keeps it busy for 30-50 ms per
 * spawn on a loaded machine (measured in docs/decisions/budgets.md): the check lets every git call
 * abort the run the moment its deadline has passed, instead of after the burst.
 */
interface RunScope {
  readonly signal: AbortSignal;
  readonly checkDeadline: (() => void) | undefined;
}

const scope = new AsyncLocalStorage<RunScope>();

/** Runs `fn` with `signal` as its ambient signal; a nested scope keeps the outer deadline check. */
export function withRunSignal<T>(signal: AbortSignal, fn: () => Promise<T>, checkDeadline?: () => void): Promise<T> {
  return scope.run({ signal, checkDeadline: checkDeadline ?? scope.getStore()?.checkDeadline }, fn);
}

/** The ambient signal, after the scope's deadline check had its chance to abort it. */
export function currentRunSignal(): AbortSignal | undefined {
  const current = scope.getStore();
  current?.checkDeadline?.();
  return current?.signal;
}
