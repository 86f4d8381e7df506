import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isAirspaceError } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { gitMessages } from '../messages/git.js';
import { git, runGit } from './exec-git.js';
import { requireSafe } from './git-argument.js';
import { fetchedBranchPrefix } from './list-refs.js';

export interface FetchResult {
  readonly ok: boolean;
  readonly reason?: string;
  /** Epoch ms when the fetch finished (or failed). */
  readonly at: number;
}

export interface FetchOptions {
  readonly timeoutMs: number;
  /** Common git dir (where `airspace/last-fetch.json` lives); looked up when absent. */
  readonly commonDir?: string;
  /** Clock for tests. */
  readonly now?: () => number;
}

/**
 * Fetches the traffic: every branch of the remote into our own `refs/airspace/branches/<remote>/*`
 * and its beacons (`refs/airspace/*` → `refs/airspace/remote/*`), time-boxed. Explicit refspecs so
 * it works whatever the user's `remote.<name>.fetch` says. `--prune` only ever prunes the
 * destinations of the refspecs on the command line (git's rule), so it deletes our own copies of
 * branches and beacons that are gone, never the user's refs. The user's remote-tracking refs get
 * exactly what `git fetch <remote> <refspec>` gives them: git's opportunistic update through their
 * own configured refspec (created and moved, never deleted; a narrowed refspec narrows it), so
 * `origin/feature-x` moves as it would have — and a deleted branch's ref stays until their own
 * `git fetch --prune` (docs/decisions/git-working-sets.md, "The tool's fetch"). `--no-tags` and
 * `--no-write-fetch-head`: FETCH_HEAD belongs to the user's last `git fetch`/`pull`. No
 * auto-maintenance: a hook must not start a gc. Failure is an answer (`ok: false` with the
 * reason), never an exception: the scan then runs on what is already here and reports how stale it is.
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
    '+refs/airspace/*:refs/airspace/remote/*',
  ];
  try {
    await runGit(args, { cwd, timeoutMs: options.timeoutMs });
  } catch (error) {
    if (!isAirspaceError(error) || error.code === 'git-cancelled') throw error;
    const reason = error.code === 'git-timeout' ? gitMessages.fetchTimedOut(remote, options.timeoutMs) : gitMessages.fetchFailed(remote, error.message);
    return { ok: false, reason, at: now() };
  }
  const at = now();
  const commonDir = options.commonDir ?? (await git(['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd }));
  await recordFetch(commonDir, remote, at);
  return { ok: true, at };
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
