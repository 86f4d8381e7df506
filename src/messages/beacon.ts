/**
 * Wording of the transponder layer: beacons, intent, inbox. The layers return codes and facts;
 * these functions turn them into sentences. Arguments that come from peers (ids, paths, details)
 * must already be sanitized by the caller (src/report/sanitize-text.ts).
 */
import type { BeaconSkipReason } from '../beacon/parse-beacon.js';
import type { PublishFailure } from '../beacon/publish-beacon.js';

export const beaconSkipReasonText: Readonly<Record<BeaconSkipReason | 'too-many' | 'unproven-claims', string>> = {
  'too-large': 'larger than the beacon size limit',
  'not-a-beacon': 'the ref does not hold a beacon.json document',
  'malformed-json': 'not valid JSON',
  'unknown-version': 'written in a beacon schema version this airspace-hooks does not know (upgrade to read it)',
  invalid: 'does not match the beacon schema',
  'id-mismatch': 'its agent id does not match the ref it was published under',
  expired: 'older than the beacon time to live',
  future: 'dated in the future (clock skew or a forged date)',
  unreadable: 'git could not read the beacon object',
  'too-many': 'older beacons beyond the newest read were not read (a flood of beacon refs on the remote?)',
  'unproven-claims': 'its right-of-way claims disagree with its own commits',
};

export function beaconSkippedLine(ref: string, reason: BeaconSkipReason | 'too-many' | 'unproven-claims', detail?: string): string {
  if (reason === 'too-many') return `${detail ?? 'some'} beacons under ${ref} ignored: ${beaconSkipReasonText[reason]}`;
  return `beacon ${ref} ignored: ${beaconSkipReasonText[reason]}${detail ? ` (${detail})` : ''}`;
}

export const publishFailureText: Readonly<Record<PublishFailure, string>> = {
  timeout: 'the push did not finish in time; the beacon was not published (the commit or push goes on)',
  unreachable: 'the remote could not be reached',
  rejected: 'the remote refused the ref refs/airspace/beacons/* (a server rule or permissions)',
  failed: 'git push failed',
  'invalid-remote': 'the remote name is not usable',
  'too-large': 'the beacon is larger than the size limit even with whole-file entries',
  invalid: 'the beacon does not match its own schema (a bug: please report it)',
};

export function beaconPublishedLine(ref: string, files: number, intent: number): string {
  return `beacon published to ${ref}: ${files} file${files === 1 ? '' : 's'}, ${intent} intent path${intent === 1 ? '' : 's'}`;
}

export function beaconNotPublishedLine(reason: PublishFailure, detail?: string): string {
  return `beacon not published: ${publishFailureText[reason]}${detail ? ` (${detail})` : ''}`;
}

export function beaconClearedLine(ref: string): string {
  return `beacon ${ref} removed from the remote`;
}

export function inboxSummaryLine(count: number): string {
  return count === 0 ? 'inbox empty' : `${count} message${count === 1 ? '' : 's'} in the inbox`;
}

export function moreItemsText(count: number): string {
  return `… ${count} more`;
}
