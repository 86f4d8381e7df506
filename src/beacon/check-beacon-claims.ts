/**
 * A beacon's right-of-way claims (`committedWork`, `startedAt`) against its own commits. Anyone
 * with push access can write any JSON under any beacon ref, so a claim counts only as far as git
 * can show it: the beacon commit's parent is the agent's work (its HEAD, or a snapshot whose
 * parent is HEAD), and the commits reachable from `head` but not from `base` are the work the
 * beacon can prove. An honest publisher claims the facts of its pushed branch, which are a subset
 * of those commits; a claim beyond them is a forgery and the beacon is skipped with the reason.
 * The facts the engine ranks by never come from these claims (src/run/report-facts.ts).
 * See docs/decisions/beacons.md, "What a beacon can and cannot prove".
 */
import { isAirspaceError } from '../errors.js';
import { runGit } from '../git/exec-git.js';
import type { Beacon } from './beacon-schema.js';

const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
/** Commits counted at most: a claim above this is refused without walking further. */
export const MAX_PROVABLE_COMMITS = 20_000;

export type ClaimVerdict = { readonly ok: true } | { readonly ok: false; readonly detail: string };

/** True when the beacon claims nothing that needs proof (the usual case: nothing pushed yet). */
export function claimsNothing(beacon: Beacon): boolean {
  return beacon.committedWork === 0 && (beacon.provenWork ?? 0) === 0 && beacon.startedAt === null;
}

/**
 * `work` is the beacon commit's parent (null when the beacon has none: a bare blob ref, or an old
 * publisher). Two git processes per claiming beacon, none for a beacon that claims nothing.
 */
export async function checkBeaconClaims(cwd: string, beacon: Beacon, work: string | null, options: { timeoutMs?: number } = {}): Promise<ClaimVerdict> {
  if (claimsNothing(beacon)) return { ok: true };
  if (work === null || !OID.test(work)) return { ok: false, detail: 'no work commit to prove them' };
  if (!OID.test(beacon.head) || beacon.base === null || !OID.test(beacon.base)) return { ok: false, detail: 'no head and base commits to prove them' };
  const git = { cwd, okCodes: [1, 128], ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) };
  try {
    // The head must be what travelled with this beacon: the work commit or the snapshot's parent.
    if (work !== beacon.head) {
      const parent = await runGit(['rev-parse', '-q', '--verify', '--end-of-options', `${work}^1`], git);
      if (parent.code !== 0 || parent.stdout.toString('utf8').trim() !== beacon.head) return { ok: false, detail: 'its head is not its work commit' };
    }
    const listed = await runGit(
      ['rev-list', '--timestamp', `--max-count=${MAX_PROVABLE_COMMITS + 1}`, '--end-of-options', beacon.head, `^${beacon.base}`, '--'],
      git,
    );
    if (listed.code !== 0) return { ok: false, detail: 'its commits are not here' };
    const times = listed.stdout
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => Number(line.split(' ')[0]) * 1000);
    const oldest = times.length > 0 ? Math.min(...times) : null;
    if (beacon.committedWork > times.length) return { ok: false, detail: `claims ${beacon.committedWork} commits, its work shows ${times.length}` };
    if ((beacon.provenWork ?? 0) > times.length) return { ok: false, detail: `claims ${beacon.provenWork} commits, its work shows ${times.length}` };
    if (beacon.startedAt !== null && (oldest === null || beacon.startedAt < oldest)) {
      return {
        ok: false,
        detail: `claims a start at ${new Date(beacon.startedAt).toISOString()}, its oldest commit is ${oldest === null ? 'none' : new Date(oldest).toISOString()}`,
      };
    }
    return { ok: true };
  } catch (error) {
    if (!isAirspaceError(error)) throw error;
    return { ok: false, detail: error.message };
  }
}
