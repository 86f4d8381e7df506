import type { ScanResult } from '../engine/index.js';
import { openRepository } from '../run/open-repository.js';
import { runAirspace } from '../run/run-airspace.js';

/** What the radar draws: the page's title and a scan to run (once for a file, on every refresh when served). */
export interface RadarSource {
  readonly title: string;
  readonly scan: () => Promise<ScanResult>;
}

/** `radar`: every agent in the airspace, scanned without leaving a trace (no risk history written). */
export async function radarSource(cwd: string, agents: readonly string[]): Promise<RadarSource> {
  const { repo } = await openRepository(cwd);
  return {
    title: repo.branch ?? repo.toplevel,
    scan: async () => (await runAirspace({ kind: 'scan', cwd, agents, readOnly: true })).judgements[0]!.scan,
  };
}
