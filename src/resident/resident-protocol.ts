import type { Socket } from 'node:net';
import type { AirspaceEvent } from './airspace-event.js';

/**
 * The resident process's wire format: one connection per question, newline-delimited JSON.
 * The client sends one envelope; the resident answers `accepted` at once (or `refused` with a
 * reason: another build, busy, another repository), then one `answer` or `failed`. Two replies
 * let the client give up quickly on a resident that does not respond at all, and still wait as long
 * as a run may take for one that does.
 */
export const RESIDENT_PROTOCOL = 1;

/** A line longer than this is refused: a request carries an environment, an answer a JSON report. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** What `<common dir>/airspace/resident/resident.json` says about the process that serves. */
export interface ResidentInfo {
  readonly protocol: number;
  readonly identity: string;
  readonly pid: number;
  readonly socket: string;
  readonly commonDir: string;
  /** Epoch ms. */
  readonly startedAt: number;
}

export interface PushedRefLine {
  readonly localRef: string;
  readonly localSha: string;
  readonly remoteRef: string;
  readonly remoteSha: string;
}

/** Every question that runs the pipeline carries the asker's directory and environment. */
interface RunQuestion {
  readonly cwd: string;
  /** The asker's whole environment: the run sees exactly what a one-shot process would. */
  readonly env: Readonly<Record<string, string>>;
}

export type ResidentRequest =
  | (RunQuestion & {
      readonly type: 'hook';
      readonly hook: 'pre-commit' | 'pre-push';
      readonly remote: string | null;
      readonly pushed: readonly PushedRefLine[];
      readonly strict: boolean;
      readonly json: boolean;
      /** performance.now() of the asking process when it sent: its start-up is inside the budget. */
      readonly elapsedMs: number;
      readonly budgetMs?: number;
      /** Whether the asker's stdout / stderr are terminals (colors). */
      readonly tty: { readonly out: boolean; readonly err: boolean };
    })
  | (RunQuestion & { readonly type: 'check'; readonly fetch?: boolean; readonly as?: 'pre-commit' | 'pre-push'; readonly json: boolean })
  | (RunQuestion & { readonly type: 'edit'; readonly file: string | null; readonly ttlMs: number })
  | (RunQuestion & { readonly type: 'intent-clear'; readonly path: string })
  /** Keeps the connection open: an `event` line after each re-score that changes this worktree's advisories (src/resident/resident-subscribers.ts). */
  | { readonly type: 'subscribe'; readonly cwd: string }
  | { readonly type: 'status' }
  | { readonly type: 'stop' };

export interface ResidentEnvelope {
  readonly protocol: number;
  readonly identity: string;
  readonly request: ResidentRequest;
}

export type ResidentReply =
  | { readonly type: 'accepted' }
  | { readonly type: 'refused'; readonly reason: string }
  | { readonly type: 'answer'; readonly answer: unknown }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 'event'; readonly event: AirspaceEvent };

/** What a hook question is answered with: the lines the hook prints and its exit code. */
export interface HookAnswer {
  readonly exitCode: number;
  readonly out: readonly string[];
  readonly err: readonly string[];
}

/** What a `check` question is answered with: src/app/check.ts's CheckOutcome, as JSON. */
export interface CheckAnswer {
  readonly report: unknown;
  readonly notes: readonly string[];
  readonly failedClosed: boolean;
}

/** What `resident status` shows. */
export interface ResidentStatus {
  readonly pid: number;
  readonly identity: string;
  readonly socket: string;
  readonly commonDir: string;
  readonly startedAt: number;
  readonly uptimeMs: number;
  readonly served: number;
  /** Of all runs (questions and background re-scores), those that read stages 1–3 from the warm airspace. */
  readonly servedWarm: number;
  /**
   * Pre-commit answers written for the shell, withdrawn on a watcher event, commits the shell
   * answered, and those whose recorded run printed otherwise (src/app/ready-answers.ts).
   */
  readonly ready: { readonly rendered: number; readonly withdrawn: number; readonly served: number; readonly differed: number };
  readonly busy: boolean;
  readonly rssBytes: number;
  readonly watching: number;
  /** Open subscriptions (`watch`, MCP sessions). */
  readonly subscribers: number;
}

/** Calls `onLine` per complete line; closes the socket on a line over the limit. */
export function onLines(socket: Socket, onLine: (line: string) => void): void {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let newline = buffered.indexOf('\n');
    while (newline !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      onLine(line);
      newline = buffered.indexOf('\n');
    }
    if (buffered.length > MAX_LINE_BYTES) socket.destroy();
  });
}

export function writeLine(socket: Socket, message: unknown): void {
  socket.write(`${JSON.stringify(message)}\n`);
}
