import { listBeacons, type RemoteBeaconRef } from '../beacon/list-beacons.js';
import { AirspaceError } from '../errors.js';
import { beaconNotPublishedLine } from '../messages/beacon.js';
import { sanitizeText } from '../report/sanitize-text.js';
import { openRepository } from './open-repository.js';

/** `beacon list`: the beacons the configured remote holds now; a remote that does not answer is one line (exit 2). */
export async function listRemoteBeacons(cwd: string): Promise<RemoteBeaconRef[]> {
  const { config } = await openRepository(cwd);
  const listed = await listBeacons(cwd, config.remote);
  if (!listed.ok)
    throw new AirspaceError(
      'environment',
      'beacon-list-failed',
      beaconNotPublishedLine(listed.reason ?? 'failed', listed.detail ? sanitizeText(listed.detail) : undefined),
    );
  return listed.beacons;
}
