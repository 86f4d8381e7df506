import type { OwnBeaconRef } from '../beacon/read-beacons.js';
import { withdrawBeaconRefs } from '../beacon/publish-beacon.js';
import { isAirspaceError } from '../errors.js';
import { runGit } from '../git/exec-git.js';
import { isOverBudget, type RunBudget } from './run-budget.js';

/** What stage 5 knew about this clone's own beacons (src/run/assemble-report.ts). */
export interface OwnBeaconsSeen {
  /** This clone's id: its beacons are the ones under `refs/airspace/remote/beacons/<clone>/`. */
  readonly clone: string;
  /** This clone's beacons on the remote as the fetch saw them. */
  readonly published: readonly OwnBeaconRef[];
  /** Ids of this clone's lines of work that have work now (the ownship with work, local worktrees). */
  readonly live: ReadonlySet<string>;
  /** The ownship's id when it has no work at all: its beacon stands for work that was discarded. */
  readonly discarded: string | null;
}

/**
 * Stage 7 for the judgements of one run: a line of work is alive if any judgement saw it alive;
 * only a run that judged one line knows that line's work was discarded. Skipped when the beacon
 * part of the fetch failed (the remote's current beacons are not known) or the run was cut.
 */
export async function withdrawAfterRun(
  budget: RunBudget,
  cwd: string,
  remote: string,
  judgements: readonly { readonly ownBeacons: OwnBeaconsSeen }[],
): Promise<number> {
  const first = judgements[0];
  if (!first || budget.signal.aborted) return 0;
  const live = new Set(judgements.flatMap((j) => [...j.ownBeacons.live]));
  const discarded = judgements.length === 1 ? first.ownBeacons.discarded : null;
  return withdrawOwnBeacons(budget, cwd, remote, { published: first.ownBeacons.published, live, discarded });
}

/**
 * Stage 7 of a run that touched the network (src/run/run-airspace.ts): a clone withdraws the
 * beacons it published for lines of work that no longer exist — a deleted branch, discarded work —
 * so no peer is blocked by a dead line of work (docs/decisions/agent-identity.md). A beacon of a
 * local branch that still exists but is not checked out stays: its work is still there. One
 * `for-each-ref` and one push, only when there is something to withdraw; a failure is no verdict.
 */
export async function withdrawOwnBeacons(budget: RunBudget, cwd: string, remote: string, seen: Omit<OwnBeaconsSeen, 'clone'>): Promise<number> {
  const candidates = seen.published.filter((b) => b.agent !== null && (b.agent === seen.discarded || !seen.live.has(b.agent)));
  if (candidates.length === 0) return 0;
  const timeoutMs = Math.min(budget.remaining() - 100, 5_000);
  if (timeoutMs < 200) return 0;
  try {
    return await budget.stage('beacon publish', async () => {
      const branches = new Set(
        (await runGit(['for-each-ref', '--format=%(refname:lstrip=2)', 'refs/heads/'], { cwd, timeoutMs })).stdout
          .toString('utf8')
          .split('\n')
          .filter((name) => name !== ''),
      );
      const dead = candidates.filter((b) => b.agent === seen.discarded || !branches.has(b.agent!));
      if (dead.length === 0) return 0;
      const withdrawn = await withdrawBeaconRefs(
        cwd,
        remote,
        dead.map((b) => b.ref),
        { timeoutMs },
      );
      return withdrawn.ok ? dead.length : 0;
    });
  } catch (error) {
    // The verdict is already made; a withdrawal that did not finish is tried again next time.
    if (isOverBudget(error) || isAirspaceError(error)) return 0;
    throw error;
  }
}
