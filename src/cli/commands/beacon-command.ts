import { listBeacons } from '../../beacon/list-beacons.js';
import { clearBeacon, publishBeacon } from '../../beacon/publish-beacon.js';
import { AirspaceError, EXIT } from '../../errors.js';
import { beaconClearedLine, beaconNotPublishedLine, beaconPublishedLine } from '../../messages/beacon.js';
import { cliMessages } from '../../messages/cli.js';
import type { Output } from '../../report/output.js';
import { jsonText, sanitizeText } from '../../report/sanitize-text.js';
import { openRepository } from '../../run/open-repository.js';
import { runAirspace } from '../../run/run-airspace.js';

/** `beacon publish|list|clear`: this agent's transponder on the remote (refs/airspace/beacons/*). */
export async function beaconCommand(
  cwd: string,
  args: { action: 'publish' | 'list' | 'clear'; note: string | undefined; json: boolean },
  output: Output,
): Promise<number> {
  const { repo, config } = await openRepository(cwd);
  if (args.action === 'list') {
    const listed = await listBeacons(cwd, config.remote);
    if (!listed.ok)
      throw new AirspaceError(
        'environment',
        'beacon-list-failed',
        beaconNotPublishedLine(listed.reason ?? 'failed', listed.detail ? sanitizeText(listed.detail) : undefined),
      );
    output.out(
      args.json
        ? jsonText(listed.beacons)
        : listed.beacons.map((b) => `${sanitizeText(b.agent ?? b.ref)}  ${b.sha.slice(0, 12)}`).join('\n') || cliMessages.noBeacons,
    );
    return EXIT.ok;
  }
  if (repo.branch === null && repo.head === null) throw new AirspaceError('environment', 'no-commits', cliMessages.noCommits);
  if (args.action === 'clear') {
    const { judgements } = await runAirspace({ kind: 'beacon', cwd });
    const id = judgements[0]!.report.scanned.ownship;
    if (id === null) throw new AirspaceError('environment', 'no-ownship', cliMessages.noCommits);
    const cleared = await clearBeacon(cwd, config.remote, id);
    if (!cleared.ok)
      throw new AirspaceError(
        'environment',
        'beacon-clear-failed',
        beaconNotPublishedLine(cleared.reason ?? 'failed', cleared.detail ? sanitizeText(cleared.detail) : undefined),
      );
    output.out(beaconClearedLine(cleared.ref ?? id));
    return EXIT.ok;
  }
  const { ownBeacon, ownWork } = (await runAirspace({ kind: 'beacon', cwd, ...(args.note ? { note: args.note } : {}) })).judgements[0]!;
  if (!ownBeacon) throw new AirspaceError('environment', 'no-trunk', cliMessages.noTrunkForBeacon);
  const published = await publishBeacon(cwd, config.remote, ownBeacon, {
    limits: { maxBytes: config.beacons.maxBytes },
    ...(ownWork ? { parent: ownWork } : {}),
  });
  if (!published.ok)
    throw new AirspaceError(
      'environment',
      'beacon-publish-failed',
      beaconNotPublishedLine(published.reason ?? 'failed', published.detail ? sanitizeText(published.detail) : undefined),
    );
  const sent = published.beacon ?? ownBeacon;
  output.out(args.json ? jsonText(sent) : beaconPublishedLine(published.ref ?? '', sent.workingSet.files.length, sent.intent.length));
  return EXIT.ok;
}
