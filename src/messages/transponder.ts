/**
 * The transponder: this agent's beacon on the remote, its declared intent, the inbox. One section
 * per concern, each opened by a `// --- name: what ---` line; a section exports named message
 * objects (`as const`, or a record typed by its codes) and the few functions that word a typed
 * result. Symbols are imported by name.
 */

import { formatAge } from './hooks-and-check.js';
import { DEFAULT_BEACON_READ_BYTES, DEFAULT_MAX_AREA_BEACONS, DEFAULT_MAX_BEACONS } from '../beacon/beacon-limits.js';
import type { BeaconSkipReason } from '../beacon/parse-beacon.js';
import type { BeaconOverflow } from '../beacon/read-beacons.js';
import type { PublishFailure } from '../beacon/publish-beacon.js';

// --- beacon: beacons published, skipped and cleared; the inbox (src/beacon/) ---

/**
 * Wording of the transponder layer: beacons, intent, inbox. The layers return codes and facts;
 * these functions turn them into sentences. Arguments that come from peers (ids, paths, details)
 * must already be sanitized by the caller (src/report/sanitize-text.ts).
 */

const READ_MIB = DEFAULT_BEACON_READ_BYTES / (1024 * 1024);

export const beaconSkipReasonText: Readonly<Record<BeaconSkipReason | BeaconOverflow | 'unproven-claims', string>> = {
  'too-large': 'larger than the beacon size limit',
  'not-a-beacon': 'the ref does not hold a beacon.json document',
  'malformed-json': 'not valid JSON',
  'unknown-version': 'written in a beacon schema version this airspace-hooks does not know (upgrade to read it)',
  invalid: 'does not match the beacon schema',
  'id-mismatch': 'its agent id does not match the ref it was published under',
  expired: 'older than the beacon time to live',
  future: 'dated in the future (clock skew or a forged date)',
  unreadable: 'git could not read the beacon object',
  // The bounds of src/beacon/read-beacons.ts ("Who is kept"), docs/decisions/beacon-areas.md "Who is read".
  'too-many': `seen only under the legacy refs, beyond the window of ${DEFAULT_MAX_BEACONS} such beacons a run reads beside its code areas (or ${READ_MIB} MiB of beacon.json); kept first: those touching this agent's files, then the newest (a flood of beacon refs on the remote?)`,
  'too-many-in-areas': `in this agent's code areas, beyond the read bound of ${DEFAULT_MAX_AREA_BEACONS} beacons per run (or ${READ_MIB} MiB of beacon.json); kept first: those touching this agent's files, then the newest (a flood of beacon refs inside one area?)`,
  'unproven-claims': 'its right-of-way claims disagree with its own commits',
};

export function beaconSkippedLine(ref: string, reason: BeaconSkipReason | BeaconOverflow | 'unproven-claims', detail?: string): string {
  if (reason === 'too-many' || reason === 'too-many-in-areas') return `${detail ?? 'some'} beacons under ${ref} were not read: ${beaconSkipReasonText[reason]}`;
  return `beacon ${ref} ignored: ${beaconSkipReasonText[reason]}${detail ? ` (${detail})` : ''}`;
}

export const publishFailureText: Readonly<Record<PublishFailure, string>> = {
  timeout: 'the push did not finish in time; the beacon was not published (the commit or push goes on)',
  unreachable: 'the remote could not be reached',
  rejected: 'the remote refused the beacon refs under refs/airspace/ (a server rule or permissions)',
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

// --- intent: intent add | list | clear (src/state/intent-store.ts) ---

/** The reason words of src/beacon/safe-repo-path.ts, in a user's terms. */
const PROBLEM_WORDS: Readonly<Record<string, string>> = {
  empty: 'it is empty',
  'too-long': 'it is too long',
  absolute: 'it is absolute',
  backslash: 'it contains a backslash; use / between folders',
  nul: 'it contains a NUL character',
  control: 'it contains control characters',
  bidi: 'it contains invisible or bidi characters',
  'dot-segment': 'it contains a . or .. segment',
  'empty-segment': 'it contains an empty segment (//)',
  'git-dir': 'it is inside .git',
};

export const intentMessages = {
  outsideWorktree: (input: string, toplevel: string) => `intent add: ${input} is outside this worktree (${toplevel}); declare files of this repository`,
  notAFile: (input: string, problem: string) =>
    `intent add: ${JSON.stringify(input)} is not a file path inside this repository: ${PROBLEM_WORDS[problem] ?? problem}`,
  tooMany: (declared: number, adding: number, max: number) =>
    `intent add: intent holds at most ${max} files; ${declared} declared + ${adding} new would be ${declared + adding}. Nothing was added: declare fewer, or clear some with \`airspace-hooks intent clear PATH…\``,
  needPaths: 'airspace-hooks intent add: name the files you are about to touch',
  badTtl: (value: string) => `airspace-hooks intent add: --ttl takes a number of minutes greater than 0, not ${JSON.stringify(value)}`,
  ttlOnlyForAdd: 'airspace-hooks intent: --ttl goes with intent add',
  list: (action: string, paths: readonly string[]) =>
    paths.length === 0
      ? action === 'clear'
        ? 'intent cleared'
        : 'no declared intent'
      : `${action === 'clear' ? 'intent left' : 'declared intent'} (${paths.length}):\n${paths.map((p) => `  ${p}`).join('\n')}`,
} as const;
