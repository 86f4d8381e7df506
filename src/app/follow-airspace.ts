import { loadConfig } from '../config/load-config.js';
import { resolveRepo } from '../git/resolve-repo.js';
import { followResident } from '../resident/follow-resident.js';
import { residentWanted } from '../resident/resident-wanted.js';
import { startResidentIfWanted } from '../resident/start-resident.js';
import type { ReportLink } from '../report/check-report.js';
import type { AirspaceEvent, SubscribedAdvisory } from '../resident/airspace-event.js';

export type { AirspaceEvent, SubscribedAdvisory } from '../resident/airspace-event.js';

/**
 * The door to a resident's subscription (docs/decisions/resident.md, "Subscriptions"), for `watch`
 * and the MCP server: the advisories of `cwd`'s worktree as the resident's background re-scores
 * find them, pushed. 'unavailable' when no resident can be had — off (CI, AIRSPACE_RESIDENT=off,
 * `resident.enabled` or `resident.watch` false), or none answers — and the caller watches by
 * itself; 'stopped' once `signal` aborts.
 */
export interface FollowHandlers {
  readonly signal: AbortSignal;
  readonly onConnected: (pid: number) => void;
  readonly onEvent: (event: AirspaceEvent) => void;
  readonly onLost: () => void;
}

export async function followAirspace(cwd: string, handlers: FollowHandlers): Promise<'stopped' | 'unavailable'> {
  if (!residentWanted()) return 'unavailable';
  const repo = await resolveRepo(cwd);
  const config = await loadConfig(repo.toplevel);
  if (!config.resident.enabled || !config.resident.watch) return 'unavailable';
  return followResident({ commonDir: repo.commonDir, cwd, start: async () => void (await startResidentIfWanted(cwd)), ...handlers });
}

/** An advisory as subscriptions carry it: the pair, its level, who steers, the shared files. */
export function subscribedAdvisory(link: ReportLink): SubscribedAdvisory {
  return {
    a: link.a,
    b: link.b,
    level: link.level === 'RA' ? 'RA' : 'TA',
    risk: Math.round(link.risk * 1000) / 1000,
    steer: link.steer ?? null,
    hold: link.hold ?? null,
    predictedRA: link.predictedRA === true,
    files: link.sharedFiles.map((file) => file.path),
  };
}
