/**
 * Ctrl-C ends an interactive command's run: the signal aborts, the run kills the git processes it
 * started, and the command exits. Without it, a SIGINT would kill node and orphan a hung fetch.
 * One controller per process: a command that runs twice (check's two passes) must not add a pair
 * of listeners each time.
 */
let controller: AbortController | undefined;

export function interruptSignal(): AbortSignal {
  if (controller) return controller.signal;
  const created = new AbortController();
  const stop = () => created.abort(new Error('interrupted'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  controller = created;
  return created.signal;
}
