/**
 * Ctrl-C ends an interactive command's run: the signal aborts, the run kills the git processes it
 * started, and the command exits. Without it, a SIGINT would kill node and orphan a hung fetch.
 */
export function interruptSignal(): AbortSignal {
  const controller = new AbortController();
  const stop = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return controller.signal;
}
