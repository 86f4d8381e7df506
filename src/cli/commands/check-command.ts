import { AirspaceError, EXIT } from '../../errors.js';
import { cliMessages } from '../../messages/cli.js';
import type { Output } from '../../report/output.js';
import { renderPairMatrix } from '../../report/render-matrix.js';
import { renderReportText } from '../../report/render-text.js';
import { openRepository, resolveMoment } from '../../run/open-repository.js';
import { scanRepository } from '../../run/scan-repository.js';
import { verdictFor } from '../../run/verdict.js';

export interface CheckArgs {
  readonly hook: 'pre-commit' | 'pre-push' | null;
  readonly fetch: boolean | undefined;
  readonly json: boolean;
  readonly strict: boolean;
}

/** `check`: this worktree against all traffic; exit 1 only when it must steer in a blocking mode. */
export async function checkCommand(cwd: string, args: CheckArgs, output: Output): Promise<number> {
  const { config } = await openRepository(cwd);
  const settings = args.hook ? config.hooks[args.hook] : null;
  const { report } = await scanRepository({
    cwd,
    config,
    command: 'check',
    hook: args.hook,
    fetch: args.fetch ?? settings?.fetch ?? false,
    now: Date.now(),
    graphRefresh: args.hook === 'pre-commit' ? 'never' : 'auto',
    inheritRepoEnv: false,
    onProgress: args.json ? undefined : output.progress,
  });
  const verdict = verdictFor(report, settings?.mode ?? 'block');
  const final = { ...report, verdict };
  output.out(args.json ? JSON.stringify(final, null, 2) : renderReportText(final, output.style));
  return verdict.block ? EXIT.steer : EXIT.ok;
}

export interface ScanArgs {
  readonly agents: readonly string[];
  readonly at: string | undefined;
  readonly channels: string | undefined;
  readonly fetch: boolean;
  readonly json: boolean;
}

const CHANNELS = ['overlap', 'proximity', 'breadth', 'dependency', 'tree', 'merge'];

/** `scan`: every pair of agents; advisory only (exit 0), the pair matrix on a terminal. */
export async function scanCommand(cwd: string, args: ScanArgs, output: Output): Promise<number> {
  const { config } = await openRepository(cwd);
  const channels = args.channels ? parseChannels(args.channels) : undefined;
  const now = args.at ? await resolveMoment(cwd, args.at) : Date.now();
  const { report } = await scanRepository({
    cwd,
    config,
    command: 'scan',
    hook: null,
    fetch: args.fetch,
    agentSpecs: args.agents,
    now,
    replay: args.at !== undefined,
    graphRefresh: 'auto',
    inheritRepoEnv: false,
    ...(channels ? { channels } : {}),
    onProgress: args.json ? undefined : output.progress,
  });
  if (args.json) {
    output.out(JSON.stringify(report, null, 2));
    return EXIT.ok;
  }
  const ids = report.agents.map((a) => a.id);
  output.out([...renderPairMatrix(ids, report.links, output.style), renderReportText(report, output.style)].join('\n'));
  return EXIT.ok;
}

function parseChannels(text: string): string[] {
  const list = text.split(',').map((c) => c.trim()).filter(Boolean);
  const bad = list.find((c) => !CHANNELS.includes(c));
  if (bad !== undefined || list.length === 0) throw new AirspaceError('usage', 'bad-channel', cliMessages.badChannel(bad ?? text, CHANNELS));
  return list;
}
