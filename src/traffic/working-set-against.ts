import { diffWorkingSet } from '../git/diff-working-set.js';
import { lastCommitTimes, worktreeMtimes } from '../git/last-edit-times.js';
import { targetOf, type LineOfWork } from './line-of-work.js';
import { withTime } from './pair-working-sets.js';
import type { WorkingSet } from './working-set.js';

/**
 * One line of work against a base of the caller's choosing — for a peer known only by its beacon,
 * whose ranges are in the beacon's base coordinates, and for this agent's own beacon (its trunk
 * merge-base). The pairwise path (`comparePairs`) batches; this is the single-diff case.
 */
export async function workingSetAgainst(cwd: string, base: string, line: LineOfWork, ignore: (path: string) => boolean): Promise<WorkingSet> {
  const [diff, committed, uncommitted] = await Promise.all([
    diffWorkingSet(cwd, base, targetOf(line), { ignore }),
    line.tip === base ? Promise.resolve(new Map<string, number>()) : lastCommitTimes(cwd, base, line.tip),
    line.worktreePath && line.uncommittedPaths?.length
      ? worktreeMtimes(line.worktreePath, line.uncommittedPaths)
      : Promise.resolve(new Map<string, number | null>()),
  ]);
  return { base, files: diff.files.map((entry) => withTime(entry, committed, uncommitted)) };
}
