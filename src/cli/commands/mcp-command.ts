import { AirspaceError, EXIT } from '../../errors.js';
import { packageVersion } from '../../app/version.js';
import { mcpMessages } from '../../messages/agent-views.js';
import { createMcpServer, serveStdio } from '../../mcp/mcp-server.js';
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
    { version: packageVersion(), defaultCwd: cwd, peerDiffDefaults: PEER_DIFF_DEFAULTS },
  );
  const failure = await serveStdio(server, (line) => process.stderr.write(`${line}\n`));
  return failure === null ? EXIT.ok : EXIT.error;
}

function fail(error: Error): never {
  throw error;
}
