import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isAirspaceError } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { gitMessages } from '../messages/command-line.js';
import { git, runGit } from './exec-git.js';
import { fetchBeacons, type BeaconSelection } from './fetch-beacons.js';
import { requireSafe } from './git-argument.js';
import { fetchedBranchPrefix } from './list-refs.js';

export interface FetchResult {
  readonly ok: boolean;
  readonly reason?: string;
  /** Epoch ms when the fetch finished (or failed). */
  readonly at: number;
  /** The branches fetched but the beacon part failed: why. The run judges on the branches and says so. */
  readonly beaconsFailed?: string;
  /** Beacon refs refused by size (this fetch or an earlier one): never fetched. */
  readonly beaconsRefused?: number;
  /** Beacon refs of the dependency areas listed but not fetched (over the read bound), and in how many areas. */
  readonly nearbyLeftOut?: { readonly refs: number; readonly areas: number };
  /** The dependency areas' listing failed (why); the own areas were fetched. */
  readonly nearbyFailed?: string;
  /** The own areas alone filled the read bound: the dependency areas were not listed. */
  readonly nearbyNotListed?: { readonly ownRefs: number };
}

export interface FetchOptions {
  readonly timeoutMs: number;
  /** Common git dir (where `airspace/last-fetch.json` lives); looked up when absent. */
  readonly commonDir?: string;
  /** Clock for tests. */
  readonly now?: () => number;
  /** Largest accepted `beacon.json` (config `beacons.maxBytes`): a bigger one is never fetched twice, nor kept. */
  readonly beaconMaxBytes?: number;
  /** The beacon part's own time-box (default: the fetch's); it runs beside the branches, never before them. */
  readonly beaconTimeoutMs?: number;
  /** The beacon ref prefixes to read, asked while the branches are fetched (src/git/fetch-beacons.ts `prefixes`). */
  readonly beaconPrefixes?: () => Promise<readonly string[] | BeaconSelection | null>;
}

/**
 * Fetches the traffic in two parts that run side by side, so a hostile or slow beacon never costs
 * the branches (the traffic that ranks right of way):
 * - every branch of the remote into our own `refs/airspace/branches/<remote>/*`, time-boxed. An
 *   explicit refspec so it works whatever the user's `remote.<name>.fetch` says. `--prune` only ever
 *   prunes the destinations of the refspecs on the command line (git's rule), so it deletes our own
 *   copies of branches that are gone, never the user's refs. The user's remote-tracking refs get
 *   exactly what `git fetch <remote> <refspec>` gives them: git's opportunistic update through their
 *   own configured refspec (created and moved, never deleted; a narrowed refspec narrows it), so
 *   `origin/feature-x` moves as it would have — and a deleted branch's ref stays until their own
 *   `git fetch --prune` (docs/decisions/git-working-sets.md, "The tool's fetch"). `--no-tags` and
 *   `--no-write-fetch-head`: FETCH_HEAD belongs to the user's last `git fetch`/`pull`. No
 *   auto-maintenance: a hook must not start a gc.
 * - the beacons (`refs/airspace/*` → `refs/airspace/remote/*`) through src/git/fetch-beacons.ts:
 *   listed first, sized before they are kept, an oversized one never fetched twice.
 * Failure is an answer, never an exception: branches failed → `ok: false` with the reason (the scan
 * runs on what is already here and reports how stale it is); only the beacons failed → `ok: true`
 * with `beaconsFailed`, so the check still runs on the branches and says what it could not see.
 */
export async function fetchTraffic(cwd: string, remote: string, options: FetchOptions): Promise<FetchResult> {
  const now = options.now ?? Date.now;
  // The remote comes from a committed config file: `--upload-pack=<command>` would run a command.
  requireSafe('remote', remote);
  const args = [
    'fetch',
    '--quiet',
    '--prune',
    '--no-tags',
    '--no-write-fetch-head',
    '--no-auto-maintenance',
    '--no-recurse-submodules',
    '--end-of-options',
    remote,
    `+refs/heads/*:${fetchedBranchPrefix(remote)}*`,
  ];
  const commonDirAsked = options.commonDir ? Promise.resolve(options.commonDir) : git(['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd });
  const [branches, beacons] = await Promise.all([
    failureOf(runGit(args, { cwd, timeoutMs: options.timeoutMs }), remote, options.timeoutMs),
    commonDirAsked.then((commonDir) =>
      failureOf(
        fetchBeacons({
          cwd,
          remote,
          commonDir,
          maxBytes: options.beaconMaxBytes ?? DEFAULT_BEACON_MAX_BYTES,
          timeoutMs: options.beaconTimeoutMs ?? options.timeoutMs,
          ...(options.beaconPrefixes ? { prefixes: options.beaconPrefixes } : {}),
        }),
        remote,
        options.beaconTimeoutMs ?? options.timeoutMs,
      ),
    ),
  ]);
  const beaconFacts = {
    ...(typeof beacons === 'object' && beacons.refused > 0 ? { beaconsRefused: beacons.refused } : {}),
    ...(typeof beacons === 'object' && beacons.nearbyLeftOut ? { nearbyLeftOut: beacons.nearbyLeftOut } : {}),
    ...(typeof beacons === 'object' && beacons.nearbyFailed !== undefined ? { nearbyFailed: beacons.nearbyFailed } : {}),
    ...(typeof beacons === 'object' && beacons.nearbyNotListed ? { nearbyNotListed: beacons.nearbyNotListed } : {}),
  };
  if (typeof branches === 'string') return { ok: false, reason: branches, at: now(), ...beaconFacts };
  const at = now();
  await recordFetch(await commonDirAsked, remote, at);
  return { ok: true, at, ...(typeof beacons === 'string' ? { beaconsFailed: beacons } : {}), ...beaconFacts };
}

const DEFAULT_BEACON_MAX_BYTES = 256 * 1024;

/** The work's value, or the sentence saying why it failed (a cancelled run still throws). */
async function failureOf<T extends object>(work: Promise<T>, remote: string, timeoutMs: number): Promise<T | string> {
  try {
    return await work;
  } catch (error) {
    if (isAirspaceError(error)) {
      if (error.code === 'git-cancelled') throw error;
      return error.code === 'git-timeout' ? gitMessages.fetchTimedOut(remote, timeoutMs) : gitMessages.fetchFailed(remote, error.message);
    }
    // The beacon part's quarantine and refusal list are files: a full or read-only disk is a failure to say.
    if (error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string') return gitMessages.fetchFailed(remote, error.message);
    throw error;
  }
}

export interface LastFetch {
  readonly remote: string;
  readonly at: number;
  readonly ageMs: number;
}

function stampFile(commonDir: string): string {
  return join(commonDir, 'airspace', 'last-fetch.json');
}

async function recordFetch(commonDir: string, remote: string, at: number): Promise<void> {
  // Two hooks fetching at once never leave a half-written file.
  await writeFileAtomic(stampFile(commonDir), `${JSON.stringify({ remote, at })}\n`);
}

/** When the traffic was last fetched successfully, or null if never (or the stamp is unreadable). */
export async function lastFetchAge(commonDir: string, now: number = Date.now()): Promise<LastFetch | null> {
  try {
    const data: unknown = JSON.parse(await readFile(stampFile(commonDir), 'utf8'));
    if (typeof data !== 'object' || data === null) return null;
    const { remote, at } = data as { remote?: unknown; at?: unknown };
    if (typeof remote !== 'string' || typeof at !== 'number' || !Number.isFinite(at)) return null;
    return { remote, at, ageMs: Math.max(0, now - at) };
  } catch {
    return null;
  }
}

export interface UserFetch {
  readonly at: number;
  readonly ageMs: number;
}

/**
 * When the user last ran `git fetch` or `git pull` here, from FETCH_HEAD's mtime — our own fetch
 * never writes it (`--no-write-fetch-head`), so it is theirs. FETCH_HEAD is per worktree (a linked
 * worktree's fetch writes its own git dir's), so both the worktree's git dir and the common dir
 * are read and the newer counts. Null when neither exists (a fresh clone writes none).
 */
export async function lastUserFetch(gitDir: string, commonDir: string, now: number = Date.now()): Promise<UserFetch | null> {
  const times = await Promise.all(
    [...new Set([gitDir, commonDir])].map((dir) =>
      stat(join(dir, 'FETCH_HEAD')).then(
        (s) => s.mtimeMs,
        () => null,
      ),
    ),
  );
  const at = Math.max(...times.filter((t): t is number => t !== null));
  return Number.isFinite(at) ? { at: Math.floor(at), ageMs: Math.max(0, now - at) } : null;
}
