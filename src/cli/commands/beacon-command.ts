import { EXIT } from '../../errors.js';
import { beaconClearedLine, beaconPublishedLine } from '../../messages/beacon.js';
import { cliMessages } from '../../messages/cli.js';
import type { Output } from '../../report/output.js';
import { jsonText, sanitizeText } from '../../report/sanitize-text.js';
import { clearOwnBeacon, listRemoteBeacons, publishOwnBeacon } from '../../app/beacon.js';

/** `beacon publish|list|clear`: this agent's transponder on the remote (refs/airspace/beacons/*). */
export async function beaconCommand(
  cwd: string,
  args: { action: 'publish' | 'list' | 'clear'; note: string | undefined; json: boolean },
  output: Output,
): Promise<number> {
  if (args.action === 'list') {
    const beacons = await listRemoteBeacons(cwd);
    output.out(
      args.json ? jsonText(beacons) : beacons.map((b) => `${sanitizeText(b.agent ?? b.ref)}  ${b.sha.slice(0, 12)}`).join('\n') || cliMessages.noBeacons,
    );
    return EXIT.ok;
  }
  if (args.action === 'clear') {
    output.out(beaconClearedLine(await clearOwnBeacon(cwd)));
    return EXIT.ok;
  }
  const { ref, beacon } = await publishOwnBeacon(cwd, args.note);
  output.out(args.json ? jsonText(beacon) : beaconPublishedLine(ref, beacon.workingSet.files.length, beacon.intent.length));
  return EXIT.ok;
}
