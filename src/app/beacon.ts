import { listBeacons, type RemoteBeaconRef } from '../beacon/list-beacons.js';
import { clearBeacon, publishBeacon, type PublishFailure, type PublishResult } from '../beacon/publish-beacon.js';
import type { Beacon } from '../beacon/beacon-schema.js';
import { AirspaceError } from '../errors.js';
import { beaconNotPublishedLine } from '../messages/beacon.js';
import { cliMessages } from '../messages/cli.js';
import { sanitizeText } from '../report/sanitize-text.js';
import { cloneIdentity } from '../state/clone-identity.js';
import { openRepository } from '../run/open-repository.js';
import { runAirspace } from '../run/run-airspace.js';

/**
 * `beacon publish|list|clear`: this agent's transponder on the remote (refs/airspace/beacons/*). The
 * beacon is what the beacon run computed for this worktree; a remote that refuses it is one line
 * (exit 2), never a stack.
 */

/** Publishes this worktree's beacon (with the note, if any); returns the ref written and the beacon sent. */
export async function publishOwnBeacon(cwd: string, note: string | undefined): Promise<{ ref: string; beacon: Beacon }> {
  const { repo, config } = await openRepository(cwd);
  if (repo.branch === null && repo.head === null) throw new AirspaceError('environment', 'no-commits', cliMessages.noCommits);
  const { ownBeacon, ownWork } = (await runAirspace({ kind: 'beacon', cwd, ...(note ? { note } : {}) })).judgements[0]!;
  if (!ownBeacon) throw new AirspaceError('environment', 'no-trunk', cliMessages.noTrunkForBeacon);
  const published = await publishBeacon(cwd, config.remote, ownBeacon, {
    limits: { maxBytes: config.beacons.maxBytes },
    ...(ownWork ? { parent: ownWork } : {}),
  });
  if (!published.ok) throw remoteFailed('beacon-publish-failed', published);
  return { ref: published.ref ?? '', beacon: published.beacon ?? ownBeacon };
}

/** Removes this worktree's beacon from the remote; returns the ref removed. */
export async function clearOwnBeacon(cwd: string): Promise<string> {
  const { repo, config } = await openRepository(cwd);
  if (repo.branch === null && repo.head === null) throw new AirspaceError('environment', 'no-commits', cliMessages.noCommits);
  const { judgements } = await runAirspace({ kind: 'beacon', cwd });
  const id = judgements[0]!.report.scanned.ownship;
  if (id === null) throw new AirspaceError('environment', 'no-ownship', cliMessages.noCommits);
  const clone = await cloneIdentity(repo.commonDir);
  const cleared = await clearBeacon(cwd, config.remote, id, { cloneId: clone.id });
  if (!cleared.ok) throw remoteFailed('beacon-clear-failed', cleared);
  return cleared.ref ?? id;
}

/** `beacon list`: the beacons the configured remote holds now; a remote that does not answer is one line (exit 2). */
export async function listRemoteBeacons(cwd: string): Promise<RemoteBeaconRef[]> {
  const { config } = await openRepository(cwd);
  const listed = await listBeacons(cwd, config.remote);
  if (!listed.ok) throw new AirspaceError('environment', 'beacon-list-failed', failureLine(listed));
  return listed.beacons;
}

function failureLine(result: { readonly reason?: PublishFailure; readonly detail?: string }): string {
  return beaconNotPublishedLine(result.reason ?? 'failed', result.detail ? sanitizeText(result.detail) : undefined);
}

function remoteFailed(code: 'beacon-publish-failed' | 'beacon-clear-failed', result: PublishResult): AirspaceError {
  return new AirspaceError('environment', code, failureLine(result));
}
