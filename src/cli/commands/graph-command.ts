import { EXIT } from '../../errors.js';
import { graphBuildMessages } from '../../messages/channels.js';
import type { Output } from '../../report/output.js';
import { jsonText } from '../../report/sanitize-text.js';
import { buildGraph } from '../../app/graph.js';

/** `graph build`: what the background build runs, and a foreground build on request (`--force`: every file). */
export async function graphCommand(
  cwd: string,
  args: { action: 'build'; background: boolean; force?: boolean; json: boolean; afterPid?: number },
  output: Output,
): Promise<number> {
  const outcome = await buildGraph(cwd, {
    background: args.background,
    force: args.force === true,
    ...(args.afterPid !== undefined ? { afterPid: args.afterPid } : {}),
  });
  if (args.json) {
    output.out(
      jsonText(
        outcome.ran
          ? { ran: true, files: outcome.graph.filesCruised, source: outcome.graph.source, ms: Math.round(outcome.ms), warnings: outcome.graph.warnings }
          : { ran: false, status: outcome.status },
      ),
    );
    return EXIT.ok;
  }
  if (args.background) return EXIT.ok; // stdio is ignored there anyway
  if (!outcome.ran)
    output.err(outcome.status.state === 'building' ? graphBuildMessages.alreadyBuilding(outcome.status.pid) : graphBuildMessages.status(outcome.status, false));
  else {
    for (const warning of outcome.graph.warnings) output.err(warning.message);
    output.err(graphBuildMessages.built(outcome.graph.filesCruised, outcome.ms));
  }
  return EXIT.ok;
}
