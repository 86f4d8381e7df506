/**
 * Publishing a beacon: one force-push of one ref, time-boxed, never throwing.
 *
 * The beacon travels as a parentless commit whose tree holds `beacon.json`, not as a bare blob
 * ref. Plain git (2.39) accepts a blob under `refs/airspace/…`, but hosting services, pre-receive
 * hooks and ref-protection rules are written for commits and tags, and a blob tip breaks tools that
 * walk `--all`; a commit is accepted everywhere. The commit has a fixed identity and the beacon's
 * own timestamp, so republishing an unchanged beacon yields the same commit and a no-op push; it
 * has no parent, so the remote keeps no beacon history (each push replaces, the old commit becomes
 * garbage). See docs/decisions/beacons.md.
 */
import { AirspaceError, isAirspaceError } from '../errors.js';
import { gitMessages } from '../messages/command-line.js';
import { runGit, type GitOptions } from '../git/exec-git.js';
import { withoutUntrackedContent } from '../git/shareable-work.js';
import { beaconRef, beaconRefComponent } from './agent-ref.js';
import { areaRefs } from './beacon-areas.js';
import { beaconLimits, type BeaconLimits } from './beacon-limits.js';
import { readPublishedRefs, recordPublishedRefs } from './published-refs.js';
import { checkBeacon, type Beacon } from './beacon-schema.js';
import { fitBeacon } from './fit-beacon.js';

export const BEACON_FILE = 'beacon.json';
export const DEFAULT_PUBLISH_TIMEOUT_MS = 5000;

export type RemoteFailure = 'timeout' | 'unreachable' | 'rejected' | 'failed' | 'invalid-remote';
export type PublishFailure = RemoteFailure | 'too-large' | 'invalid';

export interface PublishOptions {
  readonly timeoutMs?: number;
  /**
   * The agent's work as a commit (HEAD, or the snapshot holding its uncommitted work too). It
   * becomes the beacon commit's parent, so its objects travel with the beacon and a peer can run
   * the exact `git merge-tree` channel against work that was never pushed to a branch.
   */
  readonly parent?: string;
  /**
   * Publish the content of untracked files too (`beacons.shareUntracked`). Off by default: the
   * parent then is a copy of the work without them, and they travel by name and line range only.
   */
  readonly shareUntracked?: boolean;
  readonly limits?: Partial<BeaconLimits>;
  /**
   * This clone's common git dir: where the refs published for each agent are recorded
   * (src/beacon/published-refs.ts), so the areas a beacon left are deleted in the same push.
   * Absent: nothing is recorded and a left area's ref stays until it expires.
   */
  readonly commonDir?: string;
  /**
   * Also publish the legacy ref `refs/airspace/beacons/<clone>/<agent>` that releases before the
   * areas read (`beacons.legacyRefs`, docs/decisions/beacon-areas.md). Default true.
   */
  readonly legacyRef?: boolean;
}

export interface PublishResult {
  readonly ok: boolean;
  readonly reason?: PublishFailure;
  /** Technical detail (git's first stderr line: remote-controlled text, sanitize before printing). */
  readonly detail?: string;
  readonly ref?: string;
  readonly commit?: string;
  /** The beacon as published (after collapsing ranges / cutting files to the limits). */
  readonly beacon?: Beacon;
  /** Untracked files whose content was left out of the published work (shared by name only). */
  readonly untrackedByName?: number;
}

/** Fixed identity: the user's `user.name` may be unset, and the commit must not depend on it. */
function commitEnv(updatedAt: number): Record<string, string> {
  const date = `@${Math.floor(updatedAt / 1000)} +0000`;
  return {
    GIT_AUTHOR_NAME: 'airspace-hooks',
    GIT_AUTHOR_EMAIL: 'beacon@airspace-hooks.invalid',
    GIT_COMMITTER_NAME: 'airspace-hooks',
    GIT_COMMITTER_EMAIL: 'beacon@airspace-hooks.invalid',
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
  };
}

export async function publishBeacon(cwd: string, remote: string, beacon: Beacon, options: PublishOptions = {}): Promise<PublishResult> {
  const limits = beaconLimits(options.limits);
  const fitted = fitBeacon(beacon, limits);
  if (!fitted.ok) return { ok: false, reason: 'too-large', detail: String(fitted.bytes) };
  // Never publish what a peer would refuse: our own reader's rules apply to our own output.
  const checked = checkBeacon(fitted.beacon, limits);
  if (!checked.ok) return { ok: false, reason: 'invalid', detail: checked.issue };
  if (!isRemoteArgument(remote)) return { ok: false, reason: 'invalid-remote' };
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS);
  const component = beaconRefComponent(beacon.agent, beacon.clone?.id);
  // One beacon commit, several refs: the legacy one (for older readers) and one per area it touches.
  const refs = [...(options.legacyRef === false ? [] : [beaconRef(beacon.agent, beacon.clone?.id)]), ...areaRefs(fitted.beacon, component)];
  const ref = refs[0]!;
  const before = options.commonDir !== undefined ? ((await readPublishedRefs(options.commonDir))[component] ?? []) : [];
  const left = before.filter((old) => !refs.includes(old));
  try {
    const blob = await gitText(['hash-object', '-w', '--stdin'], { cwd, input: fitted.json, timeoutMs: remaining(deadline) });
    const tree = await gitText(['mktree'], { cwd, input: `100644 blob ${blob}\t${BEACON_FILE}\n`, timeoutMs: remaining(deadline) });
    const work = options.parent !== undefined && /^[0-9a-f]{40,64}$/.test(options.parent) ? options.parent : null;
    // Fails closed: if the untracked files cannot be cut out, nothing is published.
    const shared =
      work === null || options.shareUntracked === true
        ? { commit: work, untrackedByName: 0 }
        : await withoutUntrackedContent(cwd, work, { head: fitted.beacon.head, timeoutMs: remaining(deadline), commitEnv: commitEnv(fitted.beacon.updatedAt) });
    const parent = shared.commit === null ? [] : ['-p', shared.commit];
    const commit = await gitText(['commit-tree', '--no-gpg-sign', ...parent, '-m', 'airspace-hooks beacon', tree], {
      cwd,
      env: commitEnv(fitted.beacon.updatedAt),
      timeoutMs: remaining(deadline),
    });
    try {
      await push(cwd, remote, [...refs.map((to) => `+${commit}:${to}`), ...left.map((gone) => `:${gone}`)], deadline);
    } catch (error) {
      // Some refs may have been written: remember them all, so a later publish or withdrawal deletes them.
      if (options.commonDir !== undefined) await recordPublishedRefs(options.commonDir, component, [...new Set([...before, ...refs])]);
      throw error;
    }
    if (options.commonDir !== undefined) await recordPublishedRefs(options.commonDir, component, refs);
    return { ok: true, ref, commit, beacon: fitted.beacon, untrackedByName: shared.untrackedByName };
  } catch (error) {
    return { ...classify(error), ref };
  }
}

export async function push(cwd: string, remote: string, refspecs: readonly string[], deadline: number): Promise<void> {
  // --no-verify: we may be running inside the user's pre-push hook; do not re-enter it.
  // --no-follow-tags / --no-signed / no submodules: push exactly one ref, whatever the config says.
  const pushing = runGit(['push', '--no-verify', '--no-follow-tags', '--no-signed', '--recurse-submodules=no', '--quiet', '--', remote, ...refspecs], {
    cwd,
    timeoutMs: remaining(deadline),
  });
  // The timeout kills git's process group and a pipe held by what escaped it is not waited for
  // (src/git/git-process-group.ts); the caller's deadline stays the promise all the same.
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AirspaceError('git', 'git-timeout', gitMessages.pushTimedOut)), remaining(deadline) + 250);
    timer.unref();
  });
  pushing.catch(() => undefined);
  try {
    await Promise.race([pushing, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** A remote name or URL that git cannot read as an option. */
export function isRemoteArgument(remote: string): boolean {
  return remote.length > 0 && remote.length <= 4096 && !remote.startsWith('-') && !/[\0\n\r]/.test(remote);
}

export function remaining(deadline: number): number {
  return Math.max(1, deadline - Date.now());
}

async function gitText(args: readonly string[], options: GitOptions): Promise<string> {
  const { stdout } = await runGit(args, options);
  const text = stdout.toString('utf8').trim();
  if (!/^[0-9a-f]{40,64}$/.test(text)) throw new AirspaceError('git', 'unexpected-output', gitMessages.noObjectId(String(args[0])));
  return text;
}

export function classify(error: unknown): { ok: false; reason: RemoteFailure; detail?: string } {
  if (!isAirspaceError(error)) return { ok: false, reason: 'failed', detail: error instanceof Error ? error.message : String(error) };
  if (error.code === 'git-timeout') return { ok: false, reason: 'timeout' };
  const stderr = typeof error.details.stderr === 'string' ? error.details.stderr : '';
  const detail = stderr
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim()
    .slice(0, 300);
  const withDetail = detail !== undefined ? { detail } : {};
  if (/\[rejected\]|\[remote rejected\]|denied|protected|pre-receive hook declined/i.test(stderr)) return { ok: false, reason: 'rejected', ...withDetail };
  if (/could not read from remote|unable to access|does not appear to be a git repository|could not resolve|connection|timed out/i.test(stderr)) {
    return { ok: false, reason: 'unreachable', ...withDetail };
  }
  return { ok: false, reason: 'failed', ...withDetail };
}
