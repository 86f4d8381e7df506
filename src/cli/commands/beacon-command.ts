import { EXIT } from '../../errors.js';
import { beaconClearedLine, beaconListLine, beaconPublishedLine, staleBeaconsClearedLine, untrackedByNameLine } from '../../messages/transponder.js';
import { cliMessages } from '../../messages/command-line.js';
import type { Output } from '../../report/output.js';
import { jsonText, sanitizeText } from '../../report/sanitize-text.js';
import { clearOwnBeacon, clearStaleBeacons, listRemoteBeacons, publishOwnBeacon } from '../../app/beacon.js';

/** `beacon publish|list|clear [--stale]`: this agent's transponder on the remote (refs/airspace/beacons/*). */
export async function beaconCommand(
  cwd: string,
  args: { action: 'publish' | 'list' | 'clear'; note: string | undefined; json: boolean; stale?: boolean },
  output: Output,
): Promise<number> {
  if (args.action === 'list') {
    const beacons = await listRemoteBeacons(cwd);
    output.out(
      args.json
        ? jsonText(beacons)
        : beacons
            .map((b) =>
              beaconListLine({
                id: sanitizeText(b.agent ?? b.ref),
                sha: b.sha.slice(0, 12),
                machine: b.machine === null ? null : sanitizeText(b.machine),
                own: b.own,
                ageMs: b.ageMs,
                note: b.note === null ? null : sanitizeText(b.note, { maxLength: 120 }),
                files: b.files.map((f) => sanitizeText(f)),
                unread: b.unread,
              }),
            )
            .join('\n') || cliMessages.noBeacons,
    );
    return EXIT.ok;
  }
  if (args.action === 'clear') {
    output.out(args.stale ? staleBeaconsClearedLine(await clearStaleBeacons(cwd)) : beaconClearedLine(await clearOwnBeacon(cwd)));
    return EXIT.ok;
  }
  const { ref, beacon, untrackedByName } = await publishOwnBeacon(cwd, args.note);
  if (args.json) output.out(jsonText(beacon));
  else
    output.out(
      [
        beaconPublishedLine(ref, beacon.workingSet.files.length, beacon.intent.length),
        ...(untrackedByName > 0 ? [untrackedByNameLine(untrackedByName)] : []),
      ].join('\n'),
    );
  return EXIT.ok;
}
