import { describe, expect, it } from 'vitest';
import { beaconSkippedLine } from '../../../src/messages/transponder.js';

/** A flood line says how many beacons were not read, under which refs, and which bound stopped the read. */
describe('beacons not read for a bound', () => {
  it('the legacy window: beacons seen only under the legacy refs, beyond 50', () => {
    const line = beaconSkippedLine('refs/airspace/remote/beacons/*', 'too-many', '12');
    expect(line).toMatch(/^12 beacons under refs\/airspace\/remote\/beacons\/\* were not read: seen only under the legacy refs, beyond the window of 50 /);
    expect(line).toContain('16 MiB of beacon.json');
    expect(line).toContain("kept first: those touching this agent's files, then the newest");
  });

  it("the area bound: beacons in this agent's code areas, beyond 500", () => {
    const line = beaconSkippedLine('refs/airspace/remote/areas/*', 'too-many-in-areas', '7');
    expect(line).toMatch(
      /^7 beacons under refs\/airspace\/remote\/areas\/\* were not read: in this agent's code areas, beyond the read bound of 500 beacons per run /,
    );
    expect(line).toContain('16 MiB of beacon.json');
    expect(line).not.toContain('legacy');
  });
});
