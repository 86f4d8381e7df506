/**
 * One run at a time in the resident process. The pipeline reads its environment from
 * `process.env` (the git environment is pinned once per run, src/git/run-scope.ts), and a question
 * must be judged with the asker's environment — a hook's GIT_INDEX_FILE, a push's SSH agent, its
 * AIRSPACE_* settings — exactly as a one-shot process of the asker would be. So each run swaps in
 * the asker's environment for its duration, which is only sound when runs never overlap.
 * Background work (the watcher's re-scoring) yields: a question aborts it and goes first.
 */
interface Running {
  readonly controller: AbortController;
  readonly background: boolean;
}

export class RunQueue {
  private tail: Promise<void> = Promise.resolve();
  private current: Running | null = null;
  private queued = 0;
  private readonly controllers = new Set<AbortController>();

  get busy(): boolean {
    return this.current !== null || this.queued > 0;
  }

  /** Questions waiting behind the current run. */
  get waiting(): number {
    return this.queued;
  }

  /** Runs `task` after every earlier one, with `env` as process.env (null: keep the resident's own). */
  run<T>(env: Readonly<Record<string, string>> | null, controller: AbortController, task: () => Promise<T>): Promise<T> {
    if (this.current?.background) this.current.controller.abort();
    this.queued += 1;
    this.controllers.add(controller);
    const result = this.tail.then(async () => {
      this.queued -= 1;
      this.current = { controller, background: false };
      try {
        if (controller.signal.aborted) throw new Error('the asker left before its turn');
        return env === null ? await task() : await withEnvironment(env, task);
      } finally {
        this.current = null;
        this.controllers.delete(controller);
      }
    });
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Runs background `task` only when nothing else runs or waits, with `env` as process.env (default: the resident's own); aborted by the next question. */
  async runInBackground(task: (signal: AbortSignal) => Promise<void>, env?: Readonly<Record<string, string>>): Promise<boolean> {
    if (this.busy) return false;
    const controller = new AbortController();
    this.current = { controller, background: true };
    this.controllers.add(controller);
    const run = (async () => {
      try {
        await (env === undefined ? task(controller.signal) : withEnvironment(env, () => task(controller.signal)));
      } finally {
        this.current = null;
        this.controllers.delete(controller);
      }
    })();
    this.tail = run.then(
      () => undefined,
      () => undefined,
    );
    await this.tail;
    return !controller.signal.aborted;
  }

  abortAll(): void {
    for (const controller of this.controllers) controller.abort();
  }

  /** Resolves when nothing runs, or after `maxMs`. */
  async idle(maxMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.tail, new Promise<void>((resolve) => (timer = setTimeout(resolve, maxMs)))]);
    clearTimeout(timer);
  }
}

async function withEnvironment<T>(env: Readonly<Record<string, string>>, task: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  replaceEnvironment(env);
  try {
    return await task();
  } finally {
    replaceEnvironment(saved);
  }
}

function replaceEnvironment(env: Readonly<Record<string, string | undefined>>): void {
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  for (const [name, value] of Object.entries(env)) if (value !== undefined) process.env[name] = value;
}
