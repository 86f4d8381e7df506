import { formatAge } from './check.js';
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

/** After a publish that left untracked files' content on this machine (beacons.shareUntracked off). */
export function untrackedByNameLine(count: number): string {
  return `${count} untracked file${count === 1 ? '' : 's'} shared by name only: ${count === 1 ? 'its' : 'their'} content stayed on this machine ("beacons": { "shareUntracked": true } shares it)`;
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

/** One line of `beacon list`: id, commit, machine, age, files and note (every text already sanitized). */
export function beaconListLine(b: {
  id: string;
  sha: string;
  machine: string | null;
  own: boolean;
  ageMs: number | null;
  note: string | null;
  files: readonly string[];
  unread: string | null;
}): string {
  const from = b.own ? 'this clone' : (b.machine ?? 'unknown machine');
  const parts = [`${b.id}  ${b.sha}`, `from ${from}`];
  if (b.ageMs !== null) parts.push(`${formatAge(b.ageMs)} old`);
  if (b.unread !== null) parts.push(`not read: ${b.unread}`);
  else
    parts.push(
      `${b.files.length} file${b.files.length === 1 ? '' : 's'}${b.files.length > 0 ? `: ${b.files.slice(0, 5).join(', ')}${b.files.length > 5 ? ', …' : ''}` : ''}`,
    );
  if (b.note) parts.push(`note: ${b.note}`);
  return parts.join('  ·  ');
}

export function staleBeaconsClearedLine(n: number): string {
  return n === 0
    ? 'no beacon of this clone stands for work that no longer exists'
    : `withdrew ${n} beacon${n === 1 ? '' : 's'} of this clone for work that no longer exists`;
}
