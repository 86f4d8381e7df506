import { cloneOfComponent, decodeAgentRefComponent, FETCHED_BEACON_PREFIX } from '../beacon/agent-ref.js';
import { withdrawBeacons } from '../beacon/withdraw-beacons.js';
import { readPublishedRefs } from '../beacon/published-refs.js';
import { fetchedComponent, type OwnBeaconRef } from '../beacon/read-beacons.js';
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
 * only a run that judged one line knows that line's work was discarded. A branch a push deletes is
 * not withdrawn here: pre-push runs before the remote accepts anything (`--dry-run`, a rejected
 * deletion, a push to a URL), so readers judge a deleted branch's beacon themselves
 * (src/run/beacon-traffic.ts branchGoneFromRemote). Skipped when the beacon
 * part of the fetch failed (the remote's current beacons are not known) or the run was cut.
 */
export async function withdrawAfterRun(
  budget: RunBudget,
  cwd: string,
  remote: string,
  judgements: readonly { readonly ownBeacons: OwnBeaconsSeen }[],
  commonDir: string,
): Promise<number> {
  const first = judgements[0];
  if (!first || budget.signal.aborted) return 0;
  const live = new Set(judgements.flatMap((j) => [...j.ownBeacons.live]));
  const discarded = new Set(judgements.length === 1 && first.ownBeacons.discarded ? [first.ownBeacons.discarded] : []);
  return withdrawOwnBeacons(
    budget,
    cwd,
    remote,
    {
      clone: first.ownBeacons.clone,
      published: first.ownBeacons.published,
      live: (agent) => live.has(agent),
      discarded,
    },
    commonDir,
  );
}

/** Which of this clone's beacons to look at: alive ones stay; discarded ones go even if their branch exists. */
interface WithdrawalScope {
  readonly clone: string;
  readonly published: readonly OwnBeaconRef[];
  readonly live: (agent: string) => boolean;
  readonly discarded: ReadonlySet<string>;
}

/**
 * Stage 7 of a run that touched the network (src/run/run-airspace.ts): a clone withdraws the
 * beacons it published for lines of work that no longer exist — a deleted branch, discarded work —
 * so no peer is blocked by a dead line of work (docs/decisions/agent-identity.md). A beacon of a
 * local branch that still exists but is not checked out stays: its work is still there. One
 * `for-each-ref` and one push, only when there is something to withdraw; a failure is no verdict.
 */
async function withdrawOwnBeacons(budget: RunBudget, cwd: string, remote: string, seen: WithdrawalScope, commonDir: string): Promise<number> {
  // A selective fetch lists only this run's areas: the refs this clone published elsewhere are in its record.
  const recorded = Object.keys(await readPublishedRefs(commonDir))
    .filter((component) => cloneOfComponent(component) === seen.clone)
    .map((component): OwnBeaconRef => ({ ref: `${FETCHED_BEACON_PREFIX}${component}`, agent: decodeAgentRefComponent(component), work: null }));
  const byAgent = new Map<string, OwnBeaconRef[]>();
  for (const b of [...seen.published, ...recorded]) if (b.agent !== null) byAgent.set(b.agent, [...(byAgent.get(b.agent) ?? []), b]);
  const candidates = [...byAgent].filter(([agent]) => seen.discarded.has(agent) || !seen.live(agent));
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
      const dead = candidates.filter(([agent]) => seen.discarded.has(agent) || !branches.has(agent));
      if (dead.length === 0) return 0;
      const refs = dead.flatMap(([, listed]) => listed.map((b) => b.ref));
      // Every ref of a dead beacon goes: its legacy ref, each area it was published under, what the fetch saw.
      const components = [...new Set(refs.map(fetchedComponent).filter((c): c is string => c !== null))];
      const withdrawn = await withdrawBeacons(cwd, remote, { components, fetchedRefs: refs }, { timeoutMs, commonDir });
      return withdrawn.ok ? dead.length : 0;
    });
  } catch (error) {
    // The verdict is already made; a withdrawal that did not finish is tried again next time.
    if (isOverBudget(error) || isAirspaceError(error)) return 0;
    throw error;
  }
}
