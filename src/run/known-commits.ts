import type { PairWorkingSets } from '../traffic/collect-airspace.js';
import type { LineOfWork } from '../traffic/line-of-work.js';

const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * Commits this run already holds as commits: the ownship's tip and snapshot (its HEAD or pushed
 * commit, and the `commit-tree` of its uncommitted work) and every pair's merge-base (git's
 * `merge-base` printed it). A beacon's base is most often one of them (an agent starts from the
 * trunk's tip, which the ownship has checked out), so asking git whether it is here — one
 * `cat-file -e` process — is needed only for a base none of them names. Peer tips are left out:
 * they come from refs a remote wrote.
 */
export function knownCommits(ownship: LineOfWork | null, pairs: readonly PairWorkingSets[]): Set<string> {
  const known = new Set<string>();
  const add = (sha: string | undefined): void => {
    if (sha !== undefined && OID.test(sha)) known.add(sha);
  };
  add(ownship?.tip);
  add(ownship?.snapshot);
  for (const pair of pairs) add(pair.base);
  return known;
}

/** `hasCommit` that answers from `known` and asks `ask` (git) only for the others. */
export function hasCommitKnown(known: ReadonlySet<string>, ask: (sha: string) => Promise<boolean>): (sha: string) => Promise<boolean> {
  return (sha) => (known.has(sha) ? Promise.resolve(true) : ask(sha));
}
