import { AirspaceError, EXIT } from '../../errors.js';
import { followAirspace, subscribedAdvisory } from '../../app/follow-airspace.js';
import { packageVersion } from '../../app/version.js';
import { mcpMessages } from '../../messages/agent-views.js';
import { createMcpServer, serveStdio, type AdvisoryFeed } from '../../mcp/mcp-server.js';
import { runCheck, runInbox, runIntent, runScan } from './agent-runs.js';
import { PEER_DIFF_DEFAULTS } from '../../report/peer-diff-report.js';
import { peerDiffReport } from './diff-command.js';

/**
 * `mcp`: the stdio MCP server. The SDK (and zod) load here only: the hooks never import this
 * file (bin/airspace-hooks.js takes the hook fast path; src/cli/main.ts imports commands lazily).
 * Tools run what the CLI commands run, through agent-runs.ts.
 */
export async function mcpCommand(cwd: string): Promise<number> {
  const server = createMcpServer(
    {
      check: async (at, options) => (await runCheck(at, options)) ?? fail(new AirspaceError('config', 'checks-off', mcpMessages.checksOff)),
      scan: (at, options) => runScan(at, options),
      intent: (at, action, paths) => runIntent(at, action, paths),
      inbox: (at, ack) => runInbox(at, ack),
      peerDiff: (at, options) => peerDiffReport(at, options),
    },
    { version: packageVersion(), defaultCwd: cwd, peerDiffDefaults: PEER_DIFF_DEFAULTS, advisories: advisoryFeed(cwd) },
  );
  const failure = await serveStdio(server, (line) => process.stderr.write(`${line}\n`));
  return failure === null ? EXIT.ok : EXIT.error;
}

/**
 * The session's advisories: the resident's subscription for this worktree (a resident is started as
 * `check`'s fallback starts one); without a resident, no pushes, and a read of the resource runs `check`.
 */
function advisoryFeed(cwd: string): AdvisoryFeed {
  return {
    follow: (onChange, signal) =>
      void followAirspace(cwd, {
        signal,
        onConnected: () => undefined,
        onLost: () => undefined,
        onEvent: (event) => onChange({ agent: event.agent, at: event.at, source: 'resident', advisories: event.advisories }),
      }).catch(() => undefined),
    now: async (signal) => {
      const report = await runCheck(cwd, { signal });
      return { agent: report?.scanned.ownship ?? null, at: Date.now(), source: 'check', advisories: (report?.advisories ?? []).map(subscribedAdvisory) };
    },
  };
}

function fail(error: Error): never {
  throw error;
}
