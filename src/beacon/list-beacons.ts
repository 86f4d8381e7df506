/**
 * `beacon list`: which beacons the remote holds right now, from one `git ls-remote` (no fetch, no
 * object transfer). The contents are read after a fetch with `readBeacons`.
 */
import { runGit } from '../git/exec-git.js';
import { BEACON_REF_PREFIX, decodeAgentRefComponent } from './agent-ref.js';
import { AREA_REF_PREFIX, componentOfAreaRef } from './beacon-areas.js';
import { classify, DEFAULT_PUBLISH_TIMEOUT_MS, isRemoteArgument, type RemoteFailure } from './publish-beacon.js';

export interface RemoteBeaconRef {
  /** The agent's legacy ref, or (published under areas only) one of its area refs. */
  readonly ref: string;
  /** `<clone>/<agent>` (or `<agent>` of an older publisher): the same for all refs of one beacon. */
  readonly component: string;
  /** Every ref of this beacon on the remote: the legacy one and one per area. */
  readonly refs: readonly string[];
  /** Decoded agent id, or null for a hashed long id or a name we did not write (untrusted text). */
  readonly agent: string | null;
  readonly sha: string;
}

export interface ListBeaconsResult {
  readonly ok: boolean;
  readonly beacons: RemoteBeaconRef[];
  readonly reason?: RemoteFailure;
  readonly detail?: string;
}

export async function listBeacons(cwd: string, remote: string, options: { timeoutMs?: number } = {}): Promise<ListBeaconsResult> {
  if (!isRemoteArgument(remote)) return { ok: false, beacons: [], reason: 'invalid-remote' };
  try {
    // The whole airspace (a user's command, not a hook): one beacon per agent, whatever its number of areas.
    const { stdout } = await runGit(['ls-remote', '--refs', '--', remote, 'refs/airspace/*'], {
      cwd,
      timeoutMs: options.timeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS,
      maxBytes: 64 * 1024 * 1024,
    });
    const byComponent = new Map<string, { ref: string; sha: string; refs: string[] }>();
    for (const line of stdout.toString('utf8').split('\n')) {
      const match = /^([0-9a-f]{40,64})\t(.+)$/.exec(line);
      if (!match) continue;
      const ref = match[2]!;
      const component = ref.startsWith(BEACON_REF_PREFIX) ? ref.slice(BEACON_REF_PREFIX.length) : componentOfAreaRef(ref, AREA_REF_PREFIX);
      if (component === null) continue;
      const seen = byComponent.get(component);
      if (seen) {
        seen.refs.push(ref);
        if (ref.startsWith(BEACON_REF_PREFIX)) Object.assign(seen, { ref, sha: match[1]! });
      } else byComponent.set(component, { ref, sha: match[1]!, refs: [ref] });
    }
    const beacons: RemoteBeaconRef[] = [...byComponent].map(([component, found]) => ({ ...found, component, agent: decodeAgentRefComponent(component) }));
    return { ok: true, beacons };
  } catch (error) {
    return { ...classify(error), beacons: [] };
  }
}
