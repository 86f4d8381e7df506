import { existsSync } from 'node:fs';
import { loadConfig } from '../config/load-config.js';
import { isLockLive, isProcessAlive, readLock } from '../fs/lock-file.js';
import { resolveRepo } from '../git/resolve-repo.js';
import { formatAge, residentMessages } from '../messages/hooks-and-check.js';
import { sanitizeText } from '../report/sanitize-text.js';
import { colorEnabled, createStyle } from '../report/terminal-style.js';
import type { Output } from '../report/output.js';
import { askResident, readResidentInfo } from '../resident/ask-resident.js';
import { packageIdentity } from '../resident/resident-identity.js';
import { residentPaths } from '../resident/resident-paths.js';
import type { HookAnswer, ResidentInfo, ResidentStatus } from '../resident/resident-protocol.js';
import { Resident, type ResidentHandlers } from '../resident/resident-server.js';
import { residentWanted } from '../resident/resident-wanted.js';
import { WarmAirspace } from '../resident/warm-airspace.js';
import { startWorktreeWatcher } from '../resident/worktree-watcher.js';
import type { Rescored } from '../resident/resident-subscribers.js';
import type { AirspaceReport } from '../report/check-report.js';
import { ignoredPath, watchPaths } from './watch-paths.js';
import { residentBeaconRefresher } from './resident-beacons.js';
import { checkWorktreeOutcome } from './check.js';
import { subscribedAdvisory } from './follow-airspace.js';
import { runHookCheck } from './hook.js';
import { changeIntent, declareIntentInRun } from './intent.js';
import { ReadyAnswers } from './ready-answers.js';

/**
 * The door to the resident process (docs/decisions/resident.md): `resident serve` (what the hooks
 * start in the background), `resident status|stop`, and doctor's line. The resident answers with
 * the door's own functions — runHookCheck, checkWorktreeOutcome, declareIntent — so a verdict
 * from it is the one-shot path's verdict on the same state.
 */
export { startResidentIfWanted } from '../resident/start-resident.js';
export type { ResidentStatus } from '../resident/resident-protocol.js';

/** The door's functions, answering from `warm` when it can vouch for its last run (src/resident/warm-airspace.ts). */
const handlersWith = (warm: WarmAirspace, ready: () => ReadyAnswers | undefined): ResidentHandlers => ({
  hook: async (request, signal): Promise<HookAnswer> => {
    const out: string[] = [];
    const err: string[] = [];
    const output: Output = {
      out: (text) => out.push(text),
      err: (text) => err.push(text),
      style: createStyle(colorEnabled({ isTTY: request.tty.out }, request.env)),
      errStyle: createStyle(colorEnabled({ isTTY: request.tty.err }, request.env)),
      progress: () => undefined,
    };
    const result = await runHookCheck({
      cwd: request.cwd,
      hook: request.hook,
      remoteName: request.remote,
      pushed: request.pushed,
      strict: request.strict,
      json: request.json,
      output,
      startedAt: performance.now() - request.elapsedMs,
      signal,
      ...(request.budgetMs !== undefined ? { budgetMs: request.budgetMs } : {}),
      sensing: warm.sensing(),
    });
    // What this worktree's next pre-commit will be asked with: the shell may answer it (src/app/ready-answers.ts).
    if (request.hook === 'pre-commit' && !request.json && !request.strict) ready()?.remember(request.cwd, request.env, request.tty);
    return { exitCode: result.exitCode, out, err };
  },
  check: (request, signal) =>
    checkWorktreeOutcome(request.cwd, {
      ...(request.fetch !== undefined ? { fetch: request.fetch } : {}),
      ...(request.as ? { as: request.as } : {}),
      json: request.json,
      signal,
      sensing: warm.sensing(),
    }),
  // The harnesses' edit check (examples/agent-hooks/edit-check.cjs): `intent add` then `check`, the
  // intent declared inside the run on the run's own `rev-parse` (declareIntentInRun). The script
  // reads the advisories and the ownship only, so the run skips the radar layout that `--json` adds
  // (positions, file coordinates): the same advisories, without that cost.
  edit: async (request, signal) => {
    // An intent is read by every sibling's pre-commit: no answer written before it may be served.
    ready()?.invalidate();
    const intent = request.file === null ? null : declareIntentInRun(request.cwd, [request.file], request.ttlMs, warm.sensing());
    let outcome: Awaited<ReturnType<typeof checkWorktreeOutcome>>;
    try {
      outcome = await checkWorktreeOutcome(request.cwd, { json: false, signal, sensing: intent?.sensing ?? warm.sensing() });
    } catch (error) {
      // `intent add` would have declared it whatever `check` then did.
      await intent?.declared().catch(() => undefined);
      throw error;
    }
    const added = intent === null ? [] : (await intent.declared()).added;
    // Whether this call must steer is the edit check's to decide (decide in edit-check.cjs: an RA on these files).
    return { added, report: outcome.report };
  },
  intentClear: (request) => {
    ready()?.invalidate();
    return changeIntent(request.cwd, 'clear', [request.path]);
  },
  servedWarm: () => warm.servedWarm,
  ready: () => ready()?.status ?? { rendered: 0, withdrawn: 0, served: 0, differed: 0 },
});

/** `resident serve`: runs until idle, stopped, or the repository or the package changes. */
export async function serveResident(cwd: string, log: (line: string) => void): Promise<number> {
  if (!residentWanted()) return 0;
  const repo = await resolveRepo(cwd);
  const config = await loadConfig(repo.toplevel);
  const identity = packageIdentity();
  if (!config.resident.enabled || identity === null) return 0;
  // Not the worktree: a worktree that is removed must not leave us without a directory.
  process.chdir(repo.commonDir);
  const stamp = (line: string) => log(`${new Date().toISOString()} ${line}`);
  const warm = new WarmAirspace(repo.commonDir);
  let ready: ReadyAnswers | undefined;
  const resident = new Resident(
    { commonDir: repo.commonDir, idleMs: config.resident.idleMinutes * 60_000, identity, log: stamp },
    handlersWith(warm, () => ready),
  );
  if (!(await resident.start())) {
    stamp('another resident process serves this repository');
    return 0;
  }
  if (!config.resident.watch) resident.subscribers.disable();
  else {
    // Only a watcher can vouch that nothing moved: without one, no answer is written for the shell.
    ready = new ReadyAnswers({ queue: resident.queue, warm, commonDir: repo.commonDir, log: stamp, touch: () => resident.touch(), ...backstopFromEnv() });
    resident.add(ready);
    void watchWorktrees(resident, warm, ready, repo.toplevel, config.resident.beaconRefreshMinutes * 60_000, stamp);
  }
  if (config.resident.fetchIntervalMinutes > 0) fetchEvery(resident, repo.toplevel, config.resident.fetchIntervalMinutes * 60_000);
  await resident.done;
  return 0;
}

/**
 * The quiet time before a re-score (docs/decisions/resident.md, "Subscriptions"): an agent's edit
 * is one write, a checkout a burst of events within milliseconds; a longer burst makes one more
 * re-score, never two at once. It is a third of `watch`'s 300 ms and most of what an edit
 * waits for on a small repository before a subscriber hears of it.
 */
const RESCORE_QUIET_MS = 100;

/** The continuous part: a change in a worktree re-scores it in the background (src/resident/worktree-watcher.ts). */
async function watchWorktrees(
  resident: Resident,
  warm: WarmAirspace,
  ready: ReadyAnswers,
  toplevel: string,
  beaconRefreshMs: number,
  log: (line: string) => void,
): Promise<void> {
  const beacons = residentBeaconRefresher({ commonDir: resident.paths.commonDir, toplevel, intervalMs: beaconRefreshMs, queue: resident.queue, log });
  resident.add(beacons);
  try {
    const watcher = await startWorktreeWatcher({
      listPaths: () => watchPaths(toplevel),
      ignored: (path, paths) => ignoredPath(path, paths),
      // The pre-commit judgement of that worktree (its snapshot, its history, its peers' inboxes),
      // then its live beacon kept in step with the work (src/app/resident-beacons.ts).
      // Subscribers (`watch`, MCP sessions) hear of the advisories it found.
      // The log line names the run's stages: where an edit's time to a subscriber goes.
      rescore: async (worktree, signal) => {
        if (!existsSync(worktree)) return void (await beacons.worktreeGone(worktree, signal));
        const outcome = await checkWorktreeOutcome(worktree, { as: 'pre-commit', signal, sensing: warm.sensing() });
        if (!signal.aborted && outcome.report !== null) resident.subscribers.rescored(rescoredFrom(worktree, outcome.report));
        await beacons.afterRescore(worktree, outcome, signal);
        // After this run has left the queue: the answers the shell may serve, rendered in its background slot.
        if (!signal.aborted) setImmediate(() => ready.afterRescore());
        return outcome.report?.scanned.stages?.map((stage) => `${stage.stage} ${Math.round(stage.ms)}`).join(', ');
      },
      queue: resident.queue,
      debounceMs: RESCORE_QUIET_MS,
      log,
      onChange: (path) => {
        warm.changed(path);
        ready.invalidate(path);
      },
      onReady: (watched) => warm.watching(watched),
      onBlind: () => warm.blind(),
    });
    resident.add(watcher);
    resident.subscribers.enable(watcher);
  } catch (error) {
    resident.subscribers.disable();
    log(`not watching: ${(error as Error)?.message ?? String(error)}`);
  }
}

/** A re-score's report as the subscriptions keep it: who is who, and the advisories. */
function rescoredFrom(worktree: string, report: AirspaceReport): Rescored {
  const agentsOfWorktrees = new Map<string, string>();
  for (const agent of report.agents) if (agent.worktreePath !== undefined) agentsOfWorktrees.set(agent.worktreePath, agent.id);
  return {
    worktree,
    agent: report.scanned.ownship ?? agentsOfWorktrees.get(worktree) ?? worktree,
    agentsOfWorktrees,
    advisories: report.advisories.map(subscribedAdvisory),
  };
}

/**
 * `resident.fetchIntervalMinutes`: the traffic fetched in the background, so pre-commit's
 * "traffic as of" stays fresh; like `check --fetch` it also refreshes this clone's live beacons.
 */
function fetchEvery(resident: Resident, toplevel: string, intervalMs: number): void {
  const timer = setInterval(() => {
    void resident.queue.runInBackground(async (signal) => void (await checkWorktreeOutcome(toplevel, { fetch: true, signal }))).catch(() => undefined);
  }, intervalMs);
  resident.add({ stop: async () => clearInterval(timer), watching: () => 0 });
}

/** What `resident status` and doctor know: the answering process, or what is left of one. */
export type ResidentState =
  | { readonly state: 'running'; readonly status: ResidentStatus }
  | { readonly state: 'other-build'; readonly info: ResidentInfo }
  | { readonly state: 'stale'; readonly info: ResidentInfo }
  | { readonly state: 'busy'; readonly info: ResidentInfo }
  | { readonly state: 'none'; readonly why: 'absent' | 'disabled' };

export async function residentState(cwd: string): Promise<ResidentState> {
  const repo = await resolveRepo(cwd);
  const info = readResidentInfo(repo.commonDir);
  if (info === null) return { state: 'none', why: residentWanted() && (await loadConfig(repo.toplevel)).resident.enabled ? 'absent' : 'disabled' };
  if (info.identity !== packageIdentity()) return isProcessAlive(info.pid) ? { state: 'other-build', info } : { state: 'stale', info };
  const asked = await askResident(repo.commonDir, { type: 'status' }, { acceptTimeoutMs: 1_000, answerTimeoutMs: 2_000 });
  if (asked.ok) return { state: 'running', status: asked.answer as ResidentStatus };
  // Alive but silent: one question at a time, and a background re-score of a large repository
  // takes seconds. Calling it gone would be wrong; the hooks fall back all the same.
  return isProcessAlive(info.pid) ? { state: 'busy', info } : { state: 'stale', info };
}

/** `resident stop`: asks it to exit (or signals a resident of another build); true when one was running. */
export async function stopResident(cwd: string): Promise<boolean> {
  const repo = await resolveRepo(cwd);
  const paths = residentPaths(repo.commonDir);
  const asked = await askResident(repo.commonDir, { type: 'stop' }, { acceptTimeoutMs: 1_000, answerTimeoutMs: 2_000 });
  const holder = readLock(paths.lock);
  const live = holder !== undefined && isLockLive(holder, Date.now(), Number.MAX_SAFE_INTEGER);
  if (!asked.ok && live) process.kill(holder.pid, 'SIGTERM');
  if (!asked.ok && !live) return false;
  // Give it the time its exit takes (abort the run in flight, remove its files), at most 5 s.
  for (let waited = 0; waited < 5_000; waited += 50) {
    const still = readLock(paths.lock);
    if (still === undefined || still.pid !== holder?.pid || !isProcessAlive(still.pid)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** One line for `resident status` and doctor. */
export function describeResident(state: ResidentState): string {
  switch (state.state) {
    case 'running': {
      const s = state.status;
      return residentMessages.running(s.pid, sanitizeText(s.identity), formatAge(s.uptimeMs), sanitizeText(s.socket), s.served, s.ready?.served ?? 0);
    }
    case 'other-build':
      return residentMessages.otherBuild(state.info.pid, sanitizeText(state.info.identity));
    case 'stale':
      return residentMessages.stale(state.info.pid);
    case 'busy':
      return residentMessages.busy(state.info.pid);
    case 'none':
      return state.why === 'absent' ? residentMessages.absent : residentMessages.disabled;
  }
}

/**
 * AIRSPACE_RESIDENT_BACKSTOP_MS: how often the shell's answers are looked at again besides the
 * events in their folders (src/app/ready-answers.ts). For tests that must see the events alone at
 * work, and for diagnosis; anything but a whole number of milliseconds is ignored.
 */
function backstopFromEnv(): { backstopMs?: number } {
  const text = process.env.AIRSPACE_RESIDENT_BACKSTOP_MS;
  return text !== undefined && /^[1-9]\d{0,8}$/.test(text) ? { backstopMs: Number(text) } : {};
}
