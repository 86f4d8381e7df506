import { runGit } from './exec-git.js';

const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * Every commit reachable from `tips` and not from `base`, with its parents, from ONE
 * `rev-list --parents` (the revisions on stdin: hundreds of beacon commits do not fit an argv).
 * Null when the listing passes `maxCommits` (a base far behind the tips): the caller then proves
 * nothing from it. Ids only: a tip or base that is not an object id is never passed to git.
 */
export async function commitsSince(cwd: string, base: string, tips: readonly string[], maxCommits: number): Promise<Map<string, string[]> | null> {
  if (!OID.test(base) || tips.some((tip) => !OID.test(tip))) return null;
  const input = `${[...new Set(tips)].join('\n')}\n^${base}\n`;
  const { stdout } = await runGit(['rev-list', '--parents', `--max-count=${maxCommits + 1}`, '--stdin'], { cwd, input });
  const parents = new Map<string, string[]>();
  for (const line of stdout.toString('utf8').split('\n')) {
    if (line === '') continue;
    const [commit, ...rest] = line.split(' ');
    parents.set(commit!, rest);
  }
  return parents.size > maxCommits ? null : parents;
}
