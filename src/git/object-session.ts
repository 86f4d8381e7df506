import { AirspaceError } from '../errors.js';
import { gitMessages, gitObjectMessages } from '../messages/command-line.js';
import { BatchCommandReader, type ObjectAnswer, type ObjectCommand } from './batch-command-output.js';
import { streamGit, type GitStream } from './exec-git.js';

/**
 * One `git cat-file --batch-command --buffer` process serving every object read of a run (the
 * snapshot cache's check, the beacons' sizes and bodies, the symbol channel's file versions and
 * import probes), instead of one process per read: a git process costs the Node process a fork on
 * its main thread (docs/decisions/hook-performance.md). Requests are answered in the order they
 * were written; each is a batch of commands ended by `flush`.
 *
 * - Caps: a request's content bytes are capped (`maxBytes`); past it the request fails with
 *   git-output-too-large and the rest of its answers are read and dropped, not held.
 * - Cancellation: the run's signal kills the process (every waiting request fails with
 *   git-cancelled). A request under a narrower signal (a channel's share of the budget) fails alone
 *   when that signal aborts; its answers are dropped when they come.
 * - A timeout, a crash or an answer nobody asked for ends the process and fails every waiting
 *   request; the next request of the run opens a new one (src/git/run-scope.ts).
 * Object names are validated by the caller (src/git/read-objects.ts): one per line, never an option.
 */
export interface ObjectRequest {
  readonly commands: readonly { readonly command: ObjectCommand; readonly name: string }[];
  readonly maxBytes: number;
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs?: number;
}

interface Pending {
  readonly commands: readonly ObjectCommand[];
  readonly answers: ObjectAnswer[];
  readonly maxBytes: number;
  bytes: number;
  /** Already resolved or rejected: its remaining answers are dropped. */
  settled: boolean;
  settle(error: AirspaceError | null): void;
}

export class ObjectSession {
  private readonly queue: Pending[] = [];
  private readonly stream: GitStream;
  private gone: AirspaceError | null = null;
  /**
   * The run's abort fails every waiting request at once: the kill is asynchronous, and an answer
   * git wrote before it would otherwise still resolve a request of a cancelled run.
   */
  private readonly onRunAbort = () => this.end(cancelled());

  constructor(
    cwd: string,
    private readonly signal: AbortSignal,
    private readonly onGone: () => void,
  ) {
    signal.addEventListener('abort', this.onRunAbort, { once: true });
    const reader = new BatchCommandReader({
      next: () => {
        const head = this.queue[0];
        return head?.commands[head.answers.length];
      },
      keep: (info) => {
        const head = this.queue[0]!;
        if (head.settled) return false;
        head.bytes += info.size;
        if (head.bytes <= head.maxBytes) return true;
        head.settle(new AirspaceError('git', 'git-output-too-large', gitMessages.outputTooLarge('cat-file', head.maxBytes)));
        return false;
      },
      answer: (answer) => {
        const head = this.queue[0]!;
        head.answers.push(answer);
        if (head.answers.length < head.commands.length) return;
        this.queue.shift();
        head.settle(null);
      },
    });
    this.stream = streamGit(
      ['cat-file', '--batch-command', '--buffer'],
      { cwd, signal },
      {
        onData: (chunk) => {
          if (this.gone === null && !reader.push(chunk)) this.end(new AirspaceError('git', 'git-failed', gitObjectMessages.unasked));
        },
        onEnd: (error) => this.end(error ?? new AirspaceError('git', 'git-failed', gitObjectMessages.endedEarly)),
      },
    );
  }

  /** The answers, one per command, in order (null: no such object). */
  ask(request: ObjectRequest): Promise<ObjectAnswer[]> {
    if (this.gone !== null) return Promise.reject(this.gone);
    if (request.signal?.aborted) return Promise.reject(cancelled());
    if (request.commands.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      const onAbort = () => pending.settle(cancelled());
      const timer =
        request.timeoutMs === undefined
          ? undefined
          : setTimeout(() => this.end(new AirspaceError('git', 'git-timeout', gitObjectMessages.timedOut(request.timeoutMs!))), request.timeoutMs);
      const pending: Pending = {
        commands: request.commands.map((c) => c.command),
        answers: [],
        maxBytes: request.maxBytes,
        bytes: 0,
        settled: false,
        settle: (error) => {
          if (pending.settled) return;
          pending.settled = true;
          if (timer) clearTimeout(timer);
          request.signal?.removeEventListener('abort', onAbort);
          if (error) reject(error);
          else resolve(pending.answers);
        },
      };
      // The run's own signal kills the process (streamGit); a narrower one fails this request alone.
      if (request.signal !== undefined && request.signal !== this.signal) request.signal.addEventListener('abort', onAbort, { once: true });
      this.queue.push(pending);
      this.stream.write(`${request.commands.map((c) => `${c.command} ${c.name}\n`).join('')}flush\n`);
    });
  }

  /** Ends git's input: it answers what is waiting, then exits. */
  close(): void {
    this.stream.end();
  }

  private end(error: AirspaceError): void {
    if (this.gone !== null) return;
    this.gone = error;
    this.signal.removeEventListener('abort', this.onRunAbort);
    this.stream.kill();
    for (const pending of this.queue.splice(0)) pending.settle(error);
    this.onGone();
  }
}

function cancelled(): AirspaceError {
  return new AirspaceError('git', 'git-cancelled', gitMessages.cancelled('cat-file'));
}
