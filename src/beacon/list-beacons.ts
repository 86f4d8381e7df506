/**
 * `beacon list`: which beacons the remote holds right now, from one `git ls-remote` (no fetch, no
 * object transfer). The contents are read after a fetch with `readBeacons`.
 */
import { runGit } from '../git/exec-git.js';
import { BEACON_REF_PREFIX, decodeAgentRefComponent } from './agent-ref.js';
import { classify, DEFAULT_PUBLISH_TIMEOUT_MS, isRemoteArgument, type RemoteFailure } from './publish-beacon.js';

export interface RemoteBeaconRef {
  readonly ref: string;
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
    const { stdout } = await runGit(['ls-remote', '--refs', '--', remote, `${BEACON_REF_PREFIX}*`], {
      cwd,
      timeoutMs: options.timeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS,
      maxBytes: 16 * 1024 * 1024,
    });
    const beacons: RemoteBeaconRef[] = [];
    for (const line of stdout.toString('utf8').split('\n')) {
      const match = /^([0-9a-f]{40,64})\t(.+)$/.exec(line);
      if (!match || !match[2]!.startsWith(BEACON_REF_PREFIX)) continue;
      const ref = match[2]!;
      beacons.push({ ref, sha: match[1]!, agent: decodeAgentRefComponent(ref.slice(BEACON_REF_PREFIX.length)) });
    }
    return { ok: true, beacons };
  } catch (error) {
    return { ...classify(error), beacons: [] };
  }
}
