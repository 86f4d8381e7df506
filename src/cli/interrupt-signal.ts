/**
 * Ctrl-C ends an interactive command's run: the signal aborts, the run kills the git processes it
 * started, and the command exits. Without it, a SIGINT would kill node and orphan a hung fetch.
 * One controller per process: a process that runs commands more than once (main() called in
 * process, as the tests do; check and scan each ask once) must not add a pair of listeners each time.
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
