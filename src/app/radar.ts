import type { RadarScan } from '../report/radar-server.js';
import { openRepository } from '../run/open-repository.js';
import { runAirspace } from '../run/run-airspace.js';

/** What the radar draws: the page's title and a scan to run (once for a file, on every refresh when served). */
export interface RadarSource {
  readonly title: string;
  /** A scan, and the agent of the worktree it was run in (the page draws it as "you"). */
  readonly scan: () => Promise<RadarScan>;
}

/** `radar`: every agent in the airspace, scanned without leaving a trace (no risk history written). */
export async function radarSource(cwd: string, agents: readonly string[]): Promise<RadarSource> {
  const { repo } = await openRepository(cwd);
  return {
    title: repo.branch ?? repo.toplevel,
    scan: async () => {
      const judged = (await runAirspace({ kind: 'scan', cwd, agents, readOnly: true })).judgements[0]!;
      return { scan: judged.scan, ownship: judged.report.scanned.ownship };
    },
  };
}
