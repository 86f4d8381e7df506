import { AirspaceError, EXIT } from '../../errors.js';
import { cliMessages } from '../../messages/command-line.js';
import type { Output } from '../../report/output.js';
import { renderReportMatrix } from '../../report/render-matrix.js';
import { renderReportText } from '../../report/render-text.js';
import { checkWorktreeOutcome, SCAN_CHANNELS, scanAgents } from '../../app/check.js';
import { interruptSignal } from '../interrupt-signal.js';
import { jsonText } from '../../report/sanitize-text.js';

export interface CheckArgs {
  readonly hook: 'pre-commit' | 'pre-push' | null;
  readonly fetch: boolean | undefined;
  readonly json: boolean;
}

/**
 * `check`: this worktree against all traffic; exit 1 only when it must steer in a blocking mode,
 * or — judged as a hook with `--hook` — when that hook would fail closed. The run's own lines go to
 * stderr, as the hook prints them.
 */
export async function checkCommand(cwd: string, args: CheckArgs, output: Output): Promise<number> {
  const { report, notes, failedClosed } = await checkWorktreeOutcome(cwd, {
    ...(args.fetch !== undefined ? { fetch: args.fetch } : {}),
    as: args.hook,
    json: args.json,
    signal: interruptSignal(),
    askResident: true,
    ...(args.json ? {} : { onProgress: output.progress }),
  });
  if (!report) return EXIT.ok; // the hook's mode is off
  output.out(args.json ? jsonText(report) : renderReportText(report, output.style));
  for (const note of notes) output.err(note);
  return report.verdict?.block || failedClosed ? EXIT.steer : EXIT.ok;
}

export interface ScanArgs {
  readonly agents: readonly string[];
  readonly at: string | undefined;
  readonly channels: string | undefined;
  readonly fetch: boolean;
  readonly json: boolean;
}

const CHANNELS = SCAN_CHANNELS;

/** `scan`: every pair of agents; advisory only (exit 0), the pair matrix on a terminal. */
export async function scanCommand(cwd: string, args: ScanArgs, output: Output): Promise<number> {
  const channels = args.channels ? parseChannels(args.channels) : undefined;
  const report = await scanAgents(cwd, {
    fetch: args.fetch,
    agents: args.agents,
    ...(args.at ? { at: args.at } : {}),
    ...(channels ? { channels } : {}),
    embed: args.json,
    signal: interruptSignal(),
    ...(args.json ? {} : { onProgress: output.progress }),
  });
  if (args.json) {
    output.out(jsonText(report));
    return EXIT.ok;
  }
  output.out([...renderReportMatrix(report, output.style), renderReportText(report, output.style)].join('\n'));
  return EXIT.ok;
}

function parseChannels(text: string): string[] {
  const list = text
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const bad = list.find((c) => !CHANNELS.includes(c));
  if (bad !== undefined || list.length === 0) throw new AirspaceError('usage', 'bad-channel', cliMessages.badChannel(bad ?? text, CHANNELS));
  return list;
}
