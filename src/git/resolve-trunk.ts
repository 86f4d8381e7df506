import type { RefListing } from './list-refs.js';

export interface Trunk {
  /** Full ref name (`refs/remotes/origin/main`) or the configured revision as given. */
  readonly ref: string;
  /** Branch name (`main`), used to keep the trunk out of the traffic. */
  readonly name: string;
  readonly sha: string;
}

/**
 * The trunk every line of work is measured from. Configured name first; else what
 * `refs/remotes/<remote>/HEAD` points at (set by `git clone`); else `main`, else `master`.
 * The remote-tracking ref is preferred over the local branch of the same name: both machines see
 * the same remote refs after a fetch, so they count the same commits as "not yet in trunk".
 * Returns null when none exists (e.g. a fresh repository); callers say so instead of guessing.
 */
export function resolveTrunk(listing: RefListing, remote: string, configured?: string): Trunk | null {
  const bySha = new Map(listing.refs.map((entry) => [entry.ref, entry]));
  const pick = (name: string): Trunk | null => {
    const candidates = listing.hasRemote ? [`refs/remotes/${remote}/${name}`, `refs/heads/${name}`] : [`refs/heads/${name}`, `refs/remotes/${remote}/${name}`];
    if (name.startsWith(`${remote}/`)) candidates.unshift(`refs/remotes/${name}`);
    if (name.startsWith('refs/')) candidates.unshift(name);
    for (const ref of candidates) {
      const entry = bySha.get(ref);
      if (entry) return { ref, name: shortName(ref, remote), sha: entry.sha };
    }
    return null;
  };
  if (configured !== undefined && configured !== '') return pick(configured);
  const head = bySha.get(`refs/remotes/${remote}/HEAD`);
  if (head && head.symref !== '') {
    const target = bySha.get(head.symref);
    if (target) return { ref: target.ref, name: shortName(target.ref, remote), sha: target.sha };
  }
  return pick('main') ?? pick('master');
}

function shortName(ref: string, remote: string): string {
  for (const prefix of [`refs/remotes/${remote}/`, 'refs/heads/']) if (ref.startsWith(prefix)) return ref.slice(prefix.length);
  return ref;
}
