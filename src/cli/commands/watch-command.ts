import { AirspaceError, EXIT, isAirspaceError } from '../../errors.js';
import type { Link } from '../../app/watch.js';
import { watchMessages } from '../../messages/agent-views.js';
import type { AirspaceReport } from '../../report/check-report.js';
import type { Output } from '../../report/output.js';
import { renderWatchFrame } from '../../report/render-watch.js';
import { jsonLine } from '../../report/sanitize-text.js';
import { advisoryEvents, WATCH_EVENT_SCHEMA } from '../../report/watch-events.js';
import { watchAirspace } from '../../app/watch.js';
import { runScan } from './agent-runs.js';

/**
 * `watch [--json]`: the live view, or NDJSON events for other tools: a `scanned` line after every
 * scan, and `raised` / `changed` / `cleared` per advisory. Ctrl-C (or SIGTERM) ends it cleanly:
 * the watcher closes, the scan in flight finishes, exit 0.
 */
export async function watchCommand(cwd: string, args: { json: boolean; debounceMs: number }, output: Output): Promise<number> {
  if (!Number.isInteger(args.debounceMs) || args.debounceMs < 0 || args.debounceMs > 60_000)
    throw new AirspaceError('usage', 'bad-debounce', watchMessages.badDebounce(args.debounceMs));
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let last: readonly Link[] = [];
  const clear = process.stdout.isTTY === true;
  try {
    await watchAirspace({
      cwd,
      debounceMs: args.debounceMs,
      signal: controller.signal,
      scan: () => runScan(cwd, { signal: controller.signal }),
      onReport: (report: AirspaceReport) => {
        const at = Date.now();
        if (!args.json) output.out(renderWatchFrame(report, output.style, { clear, at }));
        else {
          for (const event of advisoryEvents(last, report.links, at)) output.out(jsonLine(event));
          output.out(
            jsonLine({
              schema: WATCH_EVENT_SCHEMA,
              type: 'scanned',
              at,
              agents: report.agents.length,
              pairs: report.pairs.compared,
              advisories: report.advisories.length,
            }),
          );
        }
        last = report.advisories;
      },
      onError: (error) => output.err(watchMessages.scanFailed(isAirspaceError(error) ? error.message : String((error as Error)?.message ?? error))),
    });
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  return EXIT.ok;
}
