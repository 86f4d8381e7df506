import { beaconRefComponent, cloneOfComponent } from '../beacon/agent-ref.js';
import { listBeacons, type RemoteBeaconRef } from '../beacon/list-beacons.js';
import { fetchedComponent, readBeacons } from '../beacon/read-beacons.js';
import { fetchTraffic } from '../git/fetch-traffic.js';
import { publishBeacon, type PublishFailure, type PublishResult } from '../beacon/publish-beacon.js';
import { clearBeacon } from '../beacon/withdraw-beacons.js';
import type { Beacon } from '../beacon/beacon-schema.js';
import { AirspaceError } from '../errors.js';
import { beaconNotPublishedLine } from '../messages/transponder.js';
import { cliMessages } from '../messages/command-line.js';
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
export async function publishOwnBeacon(cwd: string, note: string | undefined): Promise<{ ref: string; beacon: Beacon; untrackedByName: number }> {
  const { repo, config } = await openRepository(cwd);
  if (repo.branch === null && repo.head === null) throw new AirspaceError('environment', 'no-commits', cliMessages.noCommits);
  const { ownBeacon, ownWork } = (await runAirspace({ kind: 'beacon', cwd, ...(note ? { note } : {}) })).judgements[0]!;
  if (!ownBeacon) throw new AirspaceError('environment', 'no-trunk', cliMessages.noTrunkForBeacon);
  const published = await publishBeacon(cwd, config.remote, ownBeacon, {
    limits: { maxBytes: config.beacons.maxBytes },
    shareUntracked: config.beacons.shareUntracked,
    commonDir: repo.commonDir,
    legacyRef: config.beacons.legacyRefs !== 'off',
    ...(ownWork ? { parent: ownWork } : {}),
  });
  if (!published.ok) throw remoteFailed('beacon-publish-failed', published);
  return { ref: published.ref ?? '', beacon: published.beacon ?? ownBeacon, untrackedByName: published.untrackedByName ?? 0 };
}

/** Removes this worktree's beacon from the remote; returns the ref removed. */
export async function clearOwnBeacon(cwd: string): Promise<string> {
  const { repo, config } = await openRepository(cwd);
  if (repo.branch === null && repo.head === null) throw new AirspaceError('environment', 'no-commits', cliMessages.noCommits);
  const { judgements } = await runAirspace({ kind: 'beacon', cwd });
  const id = judgements[0]!.report.scanned.ownship;
  if (id === null) throw new AirspaceError('environment', 'no-ownship', cliMessages.noCommits);
  const clone = await cloneIdentity(repo.commonDir);
  const cleared = await clearBeacon(cwd, config.remote, id, { cloneId: clone.id, commonDir: repo.commonDir });
  if (!cleared.ok) throw remoteFailed('beacon-clear-failed', cleared);
  return cleared.ref ?? id;
}

/** One beacon on the remote, as `beacon list` shows it. */
export interface ListedBeacon extends RemoteBeaconRef {
  /** The publishing clone's machine and id (null: an older publisher, or a beacon not read). */
  readonly machine: string | null;
  readonly clone: string | null;
  /** True for a beacon this clone published. */
  readonly own: boolean;
  readonly ageMs: number | null;
  readonly note: string | null;
  readonly files: readonly string[];
  /** Why its contents were not read (too large, malformed, expired…), when they were not. */
  readonly unread: string | null;
}

/**
 * `beacon list`: the beacons the configured remote holds now (one `ls-remote`), each with what its
 * contents say — machine, age, note, files — read after fetching them, as a check would. A remote
 * that does not answer is one line (exit 2).
 */
export async function listRemoteBeacons(cwd: string): Promise<ListedBeacon[]> {
  const { repo, config } = await openRepository(cwd);
  const listed = await listBeacons(cwd, config.remote);
  if (!listed.ok) throw new AirspaceError('environment', 'beacon-list-failed', failureLine(listed));
  if (listed.beacons.length === 0) return [];
  const now = Date.now();
  const [clone] = await Promise.all([
    cloneIdentity(repo.commonDir),
    fetchTraffic(cwd, config.remote, { timeoutMs: 10_000, commonDir: repo.commonDir, beaconMaxBytes: config.beacons.maxBytes }),
  ]);
  const read = await readBeacons(cwd, { now, ttlMs: config.beacons.ttlMs, maxBytes: config.beacons.maxBytes });
  const byRef = new Map<string, Beacon>();
  for (const beacon of read.beacons) byRef.set(beaconRefComponent(beacon.agent, beacon.clone?.id), beacon);
  const skipped = new Map(read.skipped.map((s) => [fetchedComponent(s.ref), s.reason]));
  return listed.beacons.map((entry): ListedBeacon => {
    const component = entry.component;
    const beacon = byRef.get(component);
    const cloneId = beacon?.clone?.id ?? cloneOfComponent(component);
    return {
      ...entry,
      machine: beacon?.clone?.machine ?? null,
      clone: cloneId,
      own: cloneId === clone.id,
      ageMs: beacon ? Math.max(0, now - beacon.updatedAt) : null,
      note: beacon?.note ?? null,
      files: beacon ? beacon.workingSet.files.map((f) => f.path ?? f.file) : [],
      unread: beacon ? null : (skipped.get(component) ?? 'not fetched'),
    };
  });
}

/** `beacon clear --stale`: this clone's beacons of lines of work that no longer exist, withdrawn; how many. */
export async function clearStaleBeacons(cwd: string): Promise<number> {
  const outcome = await runAirspace({ kind: 'check', cwd, fetch: true, json: true });
  return outcome.withdrawnBeacons;
}

function failureLine(result: { readonly reason?: PublishFailure; readonly detail?: string }): string {
  return beaconNotPublishedLine(result.reason ?? 'failed', result.detail ? sanitizeText(result.detail) : undefined);
}

function remoteFailed(code: 'beacon-publish-failed' | 'beacon-clear-failed', result: PublishResult): AirspaceError {
  return new AirspaceError('environment', code, failureLine(result));
}
