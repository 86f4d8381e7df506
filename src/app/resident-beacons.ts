import { existsSync } from 'node:fs';
import { beaconRefComponent } from '../beacon/agent-ref.js';
import { readPublishedRefs } from '../beacon/published-refs.js';
import type { ResidentCompanion } from '../resident/resident-server.js';
import type { RunQueue } from '../resident/run-queue.js';
import { hasLocalBranch } from '../git/git-facts.js';
import { cloneIdentity } from '../state/clone-identity.js';
import { checkWorktreeOutcome, type CheckOutcome } from './check.js';

/**
 * The resident keeps this clone's live beacons in step with the work (docs/decisions/resident.md,
 * issue 25 "Continuous"): after the watcher's re-score of a worktree, a beacon this clone already
 * published for that worktree's agent is republished when the work changed, and withdrawn when the
 * work is gone. Both are `check --fetch` in that worktree — the run that already refreshes a live
 * beacon (stage 6, the publisher `beacon publish` uses) and withdraws the beacons of dead lines of
 * work (stage 7) — so there is no second publisher and no second rule for what is live. An agent
 * that never published (no entry in `<common-dir>/airspace/published-beacons.json`) gets nothing:
 * publishing stays the user's choice (`beacon publish`, `hooks.pre-push.publishBeacon`).
 */

/** The whole refresh — its fetch, publish and withdrawal — ends by then; the run kills what it started. */
const REFRESH_BUDGET_MS = 30_000;
/** A deferred refresh that found the queue busy tries again after this long. */
const RETRY_MS = 5_000;

interface Attempt {
  /** The commit holding the work the attempt saw (its snapshot: the same work is the same commit). */
  readonly work: string | null;
  readonly at: number;
  readonly ok: boolean;
}

export interface ResidentBeaconRefresher extends ResidentCompanion {
  /** After a background re-score of `worktree`, in the same background slot (a question aborts both). */
  readonly afterRescore: (worktree: string, outcome: CheckOutcome, signal: AbortSignal) => Promise<void>;
  /** `worktree` no longer exists: the run from `toplevel` withdraws its beacon if its branch is gone too. */
  readonly worktreeGone: (worktree: string, signal: AbortSignal) => Promise<void>;
}

export interface RefresherOptions {
  readonly commonDir: string;
  /** Where a run starts when the worktree itself is gone. */
  readonly toplevel: string;
  readonly intervalMs: number;
  readonly queue: RunQueue;
  readonly log: (line: string) => void;
}

export function residentBeaconRefresher(options: RefresherOptions): ResidentBeaconRefresher {
  const { commonDir, intervalMs, queue, log } = options;
  const attempts = new Map<string, Attempt>();
  const agentOf = new Map<string, string>();
  const deferred = new Map<string, NodeJS.Timeout>();
  let stopped = false;

  const isLive = async (agent: string): Promise<boolean> => {
    const clone = await cloneIdentity(commonDir);
    return ((await readPublishedRefs(commonDir))[beaconRefComponent(agent, clone.id)]?.length ?? 0) > 0;
  };

  /** `gone`: the run is in another worktree, for an agent whose worktree was removed. */
  const refresh = async (cwd: string, agent: string, signal: AbortSignal, gone = false): Promise<void> => {
    const started = Date.now();
    try {
      const outcome = await checkWorktreeOutcome(cwd, { fetch: true, signal: AbortSignal.any([signal, AbortSignal.timeout(REFRESH_BUDGET_MS)]) });
      const alive = !gone && outcome.ownWork?.alive === true;
      const withdrawn = !(await isLive(agent));
      const ok = outcome.report?.scanned.fetch.ok === true && (alive || withdrawn);
      if (!gone) attempts.set(agent, { work: outcome.ownWork?.commit ?? null, at: started, ok });
      const what = alive ? 'republished' : withdrawn ? 'withdrawn' : 'not withdrawn';
      log(`beacon of ${agent}: ${what} ${outcome.notes.join(' ')}`.trim());
    } catch (error) {
      attempts.set(agent, { work: attempts.get(agent)?.work ?? null, at: started, ok: false });
      // A question took the slot: the watcher re-scores again and this runs again.
      if (signal.aborted) throw error;
      log(`beacon of ${agent} not refreshed: ${(error as Error)?.message ?? String(error)}`);
    }
  };

  const defer = (worktree: string, agent: string, waitMs: number): void => {
    if (stopped || deferred.has(worktree)) return;
    const timer = setTimeout(() => {
      deferred.delete(worktree);
      void queue
        .runInBackground((signal) => refresh(worktree, agent, signal))
        .then(
          (done) => (done ? undefined : defer(worktree, agent, RETRY_MS)),
          () => undefined,
        );
    }, waitMs);
    timer.unref();
    deferred.set(worktree, timer);
  };

  /**
   * Agents a worktree moved away from (a switch) whose beacon is live: the branch may be deleted
   * later, with no hook to see it (`git branch -D` runs none). Each re-score asks whether the
   * branch still exists; when it is gone, the run withdraws its beacon at once (stage 7).
   */
  const leftBehind = new Map<string, string>();
  const withdrawLeftBehind = async (signal: AbortSignal): Promise<void> => {
    for (const [agent, worktree] of [...leftBehind]) {
      if (signal.aborted) return;
      if (!(await isLive(agent))) {
        leftBehind.delete(agent);
        continue;
      }
      const cwd = existsSync(worktree) ? worktree : options.toplevel;
      if (await hasLocalBranch(cwd, agent)) continue;
      // Forgotten only once withdrawn: a refresh cut by a question or a failed push is tried at the next re-score.
      await refresh(cwd, agent, signal, true);
      if (!(await isLive(agent))) leftBehind.delete(agent);
    }
  };

  return {
    afterRescore: async (worktree, outcome, signal) => {
      const own = outcome.ownWork;
      if (intervalMs <= 0 || !own || signal.aborted) return;
      const before = agentOf.get(worktree);
      if (before !== undefined && before !== own.agent && (await isLive(before))) leftBehind.set(before, worktree);
      leftBehind.delete(own.agent);
      agentOf.set(worktree, own.agent);
      await withdrawLeftBehind(signal);
      if (!(await isLive(own.agent))) return void attempts.delete(own.agent);
      const last = attempts.get(own.agent);
      if (last && last.work === own.commit && (last.ok || Date.now() - last.at < intervalMs)) return;
      // Work gone: at once (one push). Changed work: at most once per interval, the rest when it ends.
      const wait = own.alive && last ? last.at + intervalMs - Date.now() : 0;
      if (wait > 0) {
        if (!deferred.has(worktree)) log(`beacon of ${own.agent}: republished in ${Math.ceil(wait / 1000)} s (resident.beaconRefreshMinutes)`);
        return defer(worktree, own.agent, wait);
      }
      await refresh(worktree, own.agent, signal);
    },
    worktreeGone: async (worktree, signal) => {
      const agent = agentOf.get(worktree);
      agentOf.delete(worktree);
      if (intervalMs <= 0 || agent === undefined || !existsSync(options.toplevel) || !(await isLive(agent))) return;
      await refresh(options.toplevel, agent, signal, true);
    },
    watching: () => 0,
    stop: async () => {
      stopped = true;
      for (const timer of deferred.values()) clearTimeout(timer);
      deferred.clear();
    },
  };
}
