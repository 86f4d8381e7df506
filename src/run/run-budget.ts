import { AirspaceError } from '../errors.js';

/**
 * A run's time budget as a promise kept: one AbortController whose signal every git process of
 * the run listens to (src/git/run-scope.ts). When the budget runs out the controller aborts, the
 * processes are killed, and the run ends with what it finished; the stage log says what was checked
 * and what was not (docs/decisions/budgets.md).
 */
export type StageName = 'fetch' | 'traffic' | 'beacons' | 'graph' | 'channels' | 'scoring' | 'state' | 'beacon publish' | 'recheck';

export type StageState = 'done' | 'partial' | 'skipped' | 'failed' | 'cut';

export interface StageRecord {
  readonly stage: StageName;
  readonly state: StageState;
  /** Why it is partial, skipped, failed or cut; what it found when done, if worth saying. */
  readonly detail?: string;
  readonly ms: number;
}

export interface RunBudget {
  readonly signal: AbortSignal;
  /** The budget in ms, or null when the run has none (it still ends on abort). */
  readonly budgetMs: number | null;
  /** Ms left before the budget runs out (Infinity without a budget). */
  remaining(): number;
  /** Aborts now if the deadline has passed, without waiting for the timer (see src/git/run-scope.ts). */
  checkDeadline(): void;
  /** Runs one stage, recording its outcome; rethrows, but an abort is recorded as 'cut'. */
  stage<T>(stage: StageName, work: () => Promise<T>, describe?: (value: T) => { state?: StageState; detail?: string } | undefined): Promise<T>;
  /** Records a stage decided without running (skipped, or done elsewhere). */
  note(stage: StageName, state: StageState, detail?: string): void;
  readonly log: readonly StageRecord[];
  /** Stops the timer; aborts nothing. */
  dispose(): void;
}

export interface BudgetOptions {
  readonly budgetMs: number | null;
  /**
   * The clock value the budget counts from; the clock's value now when absent. A hook passes 0, the
   * process start on performance.now()'s clock, so node's start-up and everything before the first
   * stage (finding the repository, reading its config) are inside its budget.
   */
  readonly startedAt?: number;
  /** An outer signal (Ctrl-C, an MCP request's cancellation) that also ends the run. */
  readonly signal?: AbortSignal;
  readonly clock?: () => number;
}

export function startBudget(options: BudgetOptions): RunBudget {
  const clock = options.clock ?? (() => performance.now());
  const controller = new AbortController();
  const started = options.startedAt ?? clock();
  const deadline = options.budgetMs === null ? Infinity : started + options.budgetMs;
  const expire = () => {
    if (!controller.signal.aborted) controller.abort(overBudget(options.budgetMs!));
  };
  const checkDeadline = () => {
    if (clock() >= deadline) expire();
  };
  const timer = options.budgetMs === null ? undefined : setTimeout(expire, Math.max(0, deadline - clock()));
  timer?.unref();
  const outer = options.signal;
  const forward = () => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', forward, { once: true });

  const log: StageRecord[] = [];
  return {
    signal: controller.signal,
    budgetMs: options.budgetMs,
    remaining: () => Math.max(0, deadline - clock()),
    checkDeadline,
    log,
    async stage(stage, work, describe) {
      const at = clock();
      try {
        // A stage never starts past the deadline: synchronous work (parsing, scoring) cannot be
        // interrupted once begun, and the timer may not have had a free moment to fire yet.
        checkDeadline();
        if (controller.signal.aborted) throw controller.signal.reason;
        const value = await untilAborted(work(), controller.signal);
        const said = describe?.(value);
        log.push({ stage, state: said?.state ?? 'done', ...(said?.detail ? { detail: said.detail } : {}), ms: Math.round(clock() - at) });
        return value;
      } catch (error) {
        const state: StageState = controller.signal.aborted ? 'cut' : 'failed';
        log.push({ stage, state, ...(error instanceof Error ? { detail: error.message } : {}), ms: Math.round(clock() - at) });
        if (controller.signal.aborted) throw controller.signal.reason instanceof Error ? controller.signal.reason : overBudget(options.budgetMs ?? 0);
        throw error;
      }
    },
    note(stage, state, detail) {
      log.push({ stage, state, ...(detail ? { detail } : {}), ms: 0 });
    },
    dispose() {
      if (timer) clearTimeout(timer);
      outer?.removeEventListener('abort', forward);
    },
  };
}

/**
 * The work's result, or a rejection as soon as the signal aborts: the stage ends when the budget does,
 * not when the last killed git process has been reaped or the last promise of the work has settled.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function overBudget(ms: number): AirspaceError {
  return new AirspaceError('environment', 'over-budget', `the run reached its ${ms} ms budget`, { budgetMs: ms });
}

export function isOverBudget(error: unknown): error is AirspaceError {
  return error instanceof AirspaceError && error.code === 'over-budget';
}
