import { AirspaceError, EXIT, isAirspaceError } from '../../errors.js';
import type { Link } from '../../app/watch.js';
import { followAirspace, type AirspaceEvent } from '../../app/follow-airspace.js';
import { watchMessages } from '../../messages/agent-views.js';
import type { AirspaceReport } from '../../report/check-report.js';
import type { Output } from '../../report/output.js';
import { renderWatchFrame } from '../../report/render-watch.js';
import { jsonLine, sanitizeText } from '../../report/sanitize-text.js';
import { advisoryEvents, WATCH_EVENT_SCHEMA, type AdvisoryLink } from '../../report/watch-events.js';
import { watchAirspace } from '../../app/watch.js';
import { runScan } from './agent-runs.js';

/**
 * `watch [--json]`: the live view, or NDJSON events for other tools. It follows the repository's
 * resident process first (docs/decisions/watch.md): the advisories of this worktree as the
 * resident's re-scores of every worktree find them, `connected` when it (re)connects; when no
 * resident can be had it watches by itself — a `scanned` line after every scan of all pairs. Both
 * print `raised` / `changed` / `cleared` per advisory. Ctrl-C (or SIGTERM) ends it cleanly: exit 0.
 */
export async function watchCommand(cwd: string, args: { json: boolean; debounceMs: number }, output: Output): Promise<number> {
  if (!Number.isInteger(args.debounceMs) || args.debounceMs < 0 || args.debounceMs > 60_000)
    throw new AirspaceError('usage', 'bad-debounce', watchMessages.badDebounce(args.debounceMs));
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const followed = await followResident(cwd, args.json, controller.signal, output);
    if (followed === 'unavailable' && !controller.signal.aborted) {
      if (!args.json) output.err(output.errStyle.dim(watchMessages.ownWatcher));
      await watchByItself(cwd, args, controller.signal, output);
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  return EXIT.ok;
}

function followResident(cwd: string, json: boolean, signal: AbortSignal, output: Output): Promise<'stopped' | 'unavailable'> {
  let last: readonly AdvisoryLink[] = [];
  let agent: string | null = null;
  const clean = (text: string) => sanitizeText(text, { maxLength: 200 });
  return followAirspace(cwd, {
    signal,
    onConnected: (pid) => {
      if (json) output.out(jsonLine({ schema: WATCH_EVENT_SCHEMA, type: 'connected', at: Date.now(), resident: pid }));
      else output.out(output.style.dim(watchMessages.connected(pid, agent === null ? null : clean(agent))));
    },
    onEvent: (event: AirspaceEvent) => {
      const now = event.advisories.map(advisoryLink);
      const changes = advisoryEvents(last, now, event.at);
      const first = agent === null;
      agent = event.agent;
      last = now;
      if (json) {
        for (const change of changes) output.out(jsonLine(change));
        output.out(
          jsonLine({ schema: WATCH_EVENT_SCHEMA, type: 'advised', at: event.at, agent: event.agent, advisories: event.advisories.length, cut: event.cut }),
        );
        return;
      }
      for (const c of changes)
        output.out(
          watchMessages.change(c.at, c.type, c.level, clean(c.pair[0]), clean(c.pair[1]), c.risk, c.steer && clean(c.steer), c.files.slice(0, 5).map(clean)),
        );
      if (first && now.length === 0) output.out(output.style.dim(watchMessages.clearNow(event.at, clean(event.agent))));
      if (event.cut > 0) output.out(output.style.dim(watchMessages.cut(event.cut)));
    },
    onLost: () => {
      if (json) output.out(jsonLine({ schema: WATCH_EVENT_SCHEMA, type: 'disconnected', at: Date.now() }));
      else output.out(output.style.dim(watchMessages.lost));
    },
  });
}

function advisoryLink(advisory: AirspaceEvent['advisories'][number]): AdvisoryLink {
  return {
    a: advisory.a,
    b: advisory.b,
    level: advisory.level,
    risk: advisory.risk,
    ...(advisory.steer !== null ? { steer: advisory.steer } : {}),
    sharedFiles: advisory.files.map((path) => ({ path })),
  };
}

/** No resident: a watcher of its own, one scan of every pair after each burst of changes. */
async function watchByItself(cwd: string, args: { json: boolean; debounceMs: number }, signal: AbortSignal, output: Output): Promise<void> {
  let last: readonly Link[] = [];
  const clear = process.stdout.isTTY === true;
  await watchAirspace({
    cwd,
    debounceMs: args.debounceMs,
    signal,
    scan: () => runScan(cwd, { signal }),
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
}
