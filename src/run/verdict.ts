import type { HookMode } from '../config/schema.js';
import type { AirspaceReport, Verdict } from '../report/check-report.js';

/**
 * What this agent must do. Each side computes it on its own machine from what both can see, and
 * the engine's right-of-way is a pure function of those shared facts, so of the two agents of an
 * RA exactly one gets `steerFrom` and the other `holdAgainst`.
 */
export function verdictFor(report: AirspaceReport, mode: HookMode): Verdict {
  const own = report.scanned.ownship;
  const steerFrom: string[] = [];
  const holdAgainst: string[] = [];
  // A beacon its publisher stopped refreshing, or whose pushed branch is gone, may stand for work that is gone: it warns, never blocks alone.
  const stale = new Set(report.agents.filter((a) => a.beaconStale === true || a.branchGone === true).map((a) => a.id));
  const unprotected = new Set(report.agents.filter((agent) => agent.protection?.protected === false).map((agent) => agent.id));
  for (const link of report.advisories) {
    if (link.level !== 'RA' || own === null) continue;
    const peer = link.a === own ? link.b : link.a;
    if (link.steer === own) steerFrom.push(peer);
    else if (link.hold === own) holdAgainst.push(peer);
  }
  const staleFrom = steerFrom.filter((peer) => stale.has(peer));
  const unadvised = holdAgainst.filter((peer) => unprotected.has(peer));
  const block = mode === 'block' && steerFrom.some((peer) => !stale.has(peer));
  return { mode, steerFrom, holdAgainst, ...(staleFrom.length > 0 ? { staleFrom } : {}), ...(unadvised.length > 0 ? { unadvised } : {}), block };
}
