import { runGit } from './exec-git.js';
import { requireSafe } from './git-argument.js';

/** One local or remote-tracking branch, as `git for-each-ref` sees it. */
export interface RefEntry {
  /** Full name, e.g. `refs/remotes/origin/feature/x`. */
  readonly ref: string;
  readonly sha: string;
  /** Committer time of the tip, epoch ms. */
  readonly committedAt: number;
  /** Target of a symbolic ref (`refs/remotes/origin/HEAD` → `refs/remotes/origin/main`), else ''. */
  readonly symref: string;
}

export interface RefListing {
  readonly refs: readonly RefEntry[];
  /** Whether `remote.<remote>.url` is configured (a single-machine repo has none). */
  readonly hasRemote: boolean;
}

/**
 * Every local branch and every remote-tracking branch of `remote`, in ONE `for-each-ref` (plus a
 * `git config` lookup run alongside). Ref names cannot contain control characters, so a TAB and a
 * newline are safe separators. `%(objectname)` of a symref is the target's sha.
 */
export async function listRefs(cwd: string, remote: string): Promise<RefListing> {
  // The remote becomes part of a ref pattern and a config key: only a plain remote name fits.
  requireSafe('remote', remote);
  const format = '%(refname)%09%(objectname)%09%(committerdate:unix)%09%(symref)';
  const [listing, url] = await Promise.all([
    runGit(['for-each-ref', `--format=${format}`, '--end-of-options', 'refs/heads/', `refs/remotes/${remote}/`], { cwd }),
    runGit(['config', '--get', `remote.${remote}.url`], { cwd, okCodes: [1] }),
  ]);
  const refs: RefEntry[] = [];
  for (const line of listing.stdout.toString('utf8').split('\n')) {
    if (line === '') continue;
    const [ref = '', sha = '', date = '0', symref = ''] = line.split('\t');
    refs.push({ ref, sha, committedAt: Number(date) * 1000, symref });
  }
  return { refs, hasRemote: url.code === 0 && url.stdout.toString('utf8').trim() !== '' };
}

/** `refs/remotes/origin/feature/x` → `feature/x`; `refs/heads/x` → `x`; anything else unchanged. */
export function branchName(ref: string, remote: string): string {
  const remotePrefix = `refs/remotes/${remote}/`;
  if (ref.startsWith(remotePrefix)) return ref.slice(remotePrefix.length);
  if (ref.startsWith('refs/heads/')) return ref.slice('refs/heads/'.length);
  return ref;
}
