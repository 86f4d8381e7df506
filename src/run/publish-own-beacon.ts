import type { Beacon } from '../beacon/beacon-schema.js';
import { publishBeacon } from '../beacon/publish-beacon.js';
import type { AirspaceConfig } from '../config/defaults.js';
import { isAirspaceError } from '../errors.js';
import { beaconNotPublishedLine } from '../messages/transponder.js';
import { runMessages } from '../messages/hooks-and-check.js';
import { sanitizeText } from '../report/sanitize-text.js';
import type { RunJudgement } from './assemble-report.js';
import { isOverBudget, type RunBudget } from './run-budget.js';

/**
 * Stage 6 of a run (src/run/run-airspace.ts): this agent's beacon, published with what is left of
 * the budget. A failure is a line, never a crash: the verdict is already made.
 */
export async function publishOwnBeacon(
  budget: RunBudget,
  cwd: string,
  remote: string,
  config: AirspaceConfig,
  judged: RunJudgement,
  commonDir: string,
  /** The line to return when no time is left (default none: the stage log says it). */
  skippedLine?: string,
): Promise<string | null> {
  const timeoutMs = Math.min(budget.remaining(), 10_000);
  if (timeoutMs < 100) {
    budget.note('beacon publish', 'skipped', runMessages.noTimeLeft);
    return skippedLine ?? null;
  }
  try {
    const published = await budget.stage('beacon publish', () =>
      publishBeacon(cwd, remote, judged.ownBeacon!, {
        timeoutMs,
        limits: { maxBytes: config.beacons.maxBytes },
        shareUntracked: config.beacons.shareUntracked,
        commonDir,
        legacyRef: config.beacons.legacyRefs !== 'off',
        ...(judged.ownWork ? { parent: judged.ownWork } : {}),
      }),
    );
    return published.ok ? null : beaconNotPublishedLine(published.reason ?? 'failed', published.detail ? sanitizeText(published.detail) : undefined);
  } catch (error) {
    // A cut publish must not take the verdict away.
    if (isOverBudget(error) || isAirspaceError(error)) return beaconNotPublishedLine('timeout', undefined);
    throw error;
  }
}

/**
 * The settle of `announce` (src/run/run-airspace.ts stage 6c): `beacon` without `pushing`, dated a
 * whole second after the announce. Readers rank a beacon's refs by their commit's date in seconds
 * and, on a tie, read the legacy ref (src/beacon/read-beacons.ts); the refs of one publish are not
 * updated at one instant, so a settle in the announce's second could read as the announce.
 */
export function settledBeacon(beacon: Beacon, announce: Beacon, now: number): Beacon {
  const { pushing: _settled, ...settled } = beacon;
  return { ...settled, updatedAt: Math.max(now, beacon.updatedAt, (Math.floor(announce.updatedAt / 1000) + 1) * 1000) };
}
