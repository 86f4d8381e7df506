/**
 * Taking beacons off the remote: `beacon clear` (this agent), and a run's withdrawal of this clone's
 * beacons of lines of work that no longer exist (src/run/withdraw-own-beacons.ts). A beacon stands
 * under several refs — the legacy one and one per area (src/beacon/beacon-areas.ts) — and all of
 * them go in one push.
 */
import { runGit } from '../git/exec-git.js';
import { localAreaRefs, remoteAreaRef } from '../git/fetched-area-refs.js';
import { beaconRef, beaconRefComponent, BEACON_REF_PREFIX, FETCHED_BEACON_PREFIX } from './agent-ref.js';
import { FETCHED_AREA_PREFIX } from './beacon-areas.js';
import { listBeacons } from './list-beacons.js';
import { classify, DEFAULT_PUBLISH_TIMEOUT_MS, isRemoteArgument, push, remaining, type PublishResult } from './publish-beacon.js';
import { isPublishedBeaconRef, readPublishedRefs, recordPublishedRefs } from './published-refs.js';

/**
 * Deletes this agent's beacon on the remote — its legacy ref and every area ref of it the remote
 * lists or this clone recorded — and the local fetched copies; `cloneId` absent: an older release's ref.
 */
export async function clearBeacon(
  cwd: string,
  remote: string,
  agentId: string,
  options: { timeoutMs?: number; cloneId?: string; commonDir?: string } = {},
): Promise<PublishResult> {
  const ref = beaconRef(agentId, options.cloneId);
  const component = beaconRefComponent(agentId, options.cloneId);
  // An explicit command may list the whole airspace: every area ref of this agent goes, recorded or not.
  const listed = await listBeacons(cwd, remote, options);
  if (!listed.ok) return { ok: false, reason: listed.reason ?? 'failed', ...(listed.detail !== undefined ? { detail: listed.detail } : {}), ref };
  const onRemote = listed.beacons.find((b) => b.component === component)?.refs ?? [];
  const fetchedRefs = onRemote.flatMap(fetchedNames);
  const withdrawn = await withdrawBeacons(cwd, remote, { components: [component], fetchedRefs }, options);
  return withdrawn.ok ? { ok: true, ref } : { ...withdrawn, ref };
}

/** Beacons to withdraw: whole agents (`<clone>/<agent>` components) and fetched refs of this clone's beacons. */
export interface WithdrawTarget {
  readonly components: readonly string[];
  /** Fetched refs (`refs/airspace/remote/beacons/…`, `refs/airspace/remote/areas/…`): deleted on the remote and here. */
  readonly fetchedRefs: readonly string[];
}

/**
 * Deletes beacons on the remote: for each component its legacy ref and every ref this clone recorded
 * publishing for it (src/beacon/published-refs.ts), plus the given fetched refs' remote names. Only
 * refs under `refs/airspace/beacons/` and `refs/airspace/areas/` can be named; the local copies go
 * too (one `update-ref --stdin`), and the records of the withdrawn components.
 */
export async function withdrawBeacons(
  cwd: string,
  remote: string,
  target: WithdrawTarget,
  options: { timeoutMs?: number; commonDir?: string } = {},
): Promise<PublishResult> {
  if (!isRemoteArgument(remote)) return { ok: false, reason: 'invalid-remote' };
  const recorded = options.commonDir !== undefined ? await readPublishedRefs(options.commonDir) : {};
  const remoteRefs = new Set<string>();
  for (const component of target.components) {
    remoteRefs.add(`${BEACON_REF_PREFIX}${component}`);
    for (const ref of recorded[component] ?? []) remoteRefs.add(ref);
  }
  for (const fetched of target.fetchedRefs) {
    if (fetched.startsWith(FETCHED_BEACON_PREFIX)) remoteRefs.add(`refs/airspace/${fetched.slice('refs/airspace/remote/'.length)}`);
    else if (fetched.startsWith(FETCHED_AREA_PREFIX)) {
      const remoteRef = remoteAreaRef(fetched);
      if (remoteRef !== null) remoteRefs.add(remoteRef);
    }
  }
  const refs = [...remoteRefs].filter(isPublishedBeaconRef);
  if (refs.length === 0) return { ok: true };
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS);
  try {
    // Deleting a ref the remote does not have is a warning, not an error, in git 2.39: idempotent.
    await push(
      cwd,
      remote,
      refs.map((ref) => `:${ref}`),
      deadline,
    );
    const local = [
      ...new Set([
        ...refs.flatMap(fetchedNames),
        ...target.fetchedRefs.filter((ref) => ref.startsWith(FETCHED_BEACON_PREFIX) || ref.startsWith(FETCHED_AREA_PREFIX)),
      ]),
    ]
      .map((ref) => `delete ${ref}\n`)
      .join('');
    await runGit(['update-ref', '--stdin'], { cwd, input: local, timeoutMs: remaining(deadline) }).catch(() => undefined);
    if (options.commonDir !== undefined) for (const component of target.components) await recordPublishedRefs(options.commonDir, component, []);
    return { ok: true };
  } catch (error) {
    return classify(error);
  }
}

/** The local copies of a remote beacon ref: an area ref in both local layouts (src/git/fetched-area-refs.ts). */
function fetchedNames(remoteRef: string): string[] {
  if (remoteRef.startsWith('refs/airspace/areas/')) return localAreaRefs(remoteRef);
  return [`refs/airspace/remote/${remoteRef.slice('refs/airspace/'.length)}`];
}
