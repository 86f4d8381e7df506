import { runGit } from './exec-git.js';

/** Enough reflog entries for months of work on one branch; the walk stops there. */
const MAX_ENTRIES = 5_000;

/**
 * The commits this worktree's HEAD and this branch have pointed at, as far as the reflogs remember
 * (`core.logAllRefUpdates`, on by default in a clone). It tells our own earlier work (amended,
 * rebased, reset away after a push) from another machine's under the same branch name, which was
 * never checked out here. An empty set when reflogs are off: nothing is known to be ours.
 */
export async function reflogCommits(cwd: string, branch: string): Promise<ReadonlySet<string>> {
  const result = await runGit(
    ['log', '--walk-reflogs', '--ignore-missing', `--max-count=${MAX_ENTRIES}`, '--format=%H', '--end-of-options', 'HEAD', `refs/heads/${branch}`, '--'],
    { cwd, okCodes: [128] },
  );
  if (result.code !== 0) return new Set();
  return new Set(
    result.stdout
      .toString('utf8')
      .split('\n')
      .filter((line) => line.length > 0),
  );
}
