import { setMaxListeners } from 'node:events';
import { withRunScope } from '../git/run-scope.js';

/**
 * Git processes of a replay that listen to its signal at once: replay-collect.ts reads up to four
 * merges in parallel with three git processes each, beside the batched diffs. Node warns on stderr
 * past ten listeners on one signal, and the replay's output must stay clean.
 */
const LISTENERS = 32;

/**
 * One replay or calibration as a run (docs/decisions/budgets.md): its own AbortController, aborted
 * by the caller's signal (Ctrl-C from the CLI), is the ambient signal of every git process the run
 * starts (src/git/run-signal.ts), so they all die with it; long-lived git processes close when it ends.
 */
export async function inHistoryRun<T>(outer: AbortSignal | undefined, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  setMaxListeners(LISTENERS, controller.signal);
  const abort = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) abort();
  else outer?.addEventListener('abort', abort, { once: true });
  try {
    return await withRunScope(controller.signal, () => fn(controller.signal));
  } finally {
    outer?.removeEventListener('abort', abort);
  }
}
