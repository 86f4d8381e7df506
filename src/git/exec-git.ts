import { spawn } from 'node:child_process';
import { AirspaceError } from '../errors.js';
import { gitMessages } from '../messages/command-line.js';
import { groupSpawnOptions, watchGit } from './git-process-group.js';
import { currentRunSignal, runEnvironment } from './run-scope.js';

/**
 * The one place that runs git. Every call pins the output format and the environment, so the
 * rest of the code can parse what comes back without guessing at user configuration.
 */

export interface GitOptions {
  /** Working directory (a worktree or a git dir). */
  readonly cwd: string;
  /** Bytes written to git's stdin. */
  readonly input?: string | Buffer;
  /** Extra environment (e.g. GIT_INDEX_FILE of a temporary index). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Keep the repository-selecting variables git exports to hooks (GIT_DIR, GIT_INDEX_FILE, ...).
   * Only true for the ownship worktree: inside `git commit -a` the hook must read the index git is
   * building (GIT_INDEX_FILE points at it), but the same variables would make a git call in another
   * worktree or a temp repository read the wrong repository.
   */
  readonly inheritRepoEnv?: boolean;
  /** Exit codes that are answers, not failures (e.g. merge-tree's 1 = conflict, diff --quiet's 1). */
  readonly okCodes?: readonly number[];
  readonly timeoutMs?: number;
  /** Cap on captured stdout; larger output is an error, not a hang. */
  readonly maxBytes?: number;
  /** Kills the process when aborted; defaults to the run's signal (src/git/run-scope.ts). */
  readonly signal?: AbortSignal;
  /**
   * The call is the user's own command (the demo's commits and pushes, which must run the hooks
   * being demonstrated) or reads where the user's hooks live (`install`): core.hooksPath is left as
   * configured. Every other call runs no hook at all (see HOOKLESS).
   */
  readonly userHooks?: boolean;
}

export interface GitResult {
  readonly code: number;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** The variables that select a repository (git exports them to hooks): passed to git only with `inheritRepoEnv`. */
export const REPO_ENV: readonly string[] = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_PREFIX',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
];

/** Flags that make porcelain-ish output stable whatever the user's config says. */
const PINNED_CONFIG = [
  '-c',
  'core.quotePath=false',
  '-c',
  'color.ui=false',
  '-c',
  'diff.noprefix=false',
  '-c',
  'diff.mnemonicPrefix=false',
  '-c',
  'diff.external=',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'log.showSignature=false',
];

/**
 * Our git calls run none of the user's hooks. A hook is the user's program for the user's own
 * commands; ours would run it against our temporary index (post-index-change on every snapshot),
 * on the refs a fetch updates (reference-transaction), or re-enter our own pre-push from the
 * beacon's push (which also says --no-verify) — and a slow one would hold the run. /dev/null is no
 * directory, so git finds no hook in it.
 */
const HOOKLESS = ['-c', 'core.hooksPath=/dev/null'];

function gitArguments(args: readonly string[], options: Pick<GitOptions, 'userHooks'>): string[] {
  return options.userHooks === true ? [...PINNED_CONFIG, ...args] : [...PINNED_CONFIG, ...HOOKLESS, ...args];
}

export function gitEnvironment(options: Pick<GitOptions, 'env' | 'inheritRepoEnv'>): NodeJS.ProcessEnv {
  const inherit = options.inheritRepoEnv === true;
  // Once per run and per `inheritRepoEnv` (src/git/run-scope.ts); the per-call `env` on top.
  const pinned = runEnvironment(inherit ? 'inherit-repo-env' : 'plain', () => pinnedEnvironment(inherit));
  return options.env === undefined ? pinned : { ...pinned, ...options.env };
}

function pinnedEnvironment(inheritRepoEnv: boolean): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (!inheritRepoEnv) for (const name of REPO_ENV) delete env[name];
  // A read-only tool must not refresh the user's index as a side effect of `git status`.
  env.GIT_OPTIONAL_LOCKS = '0';
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_PAGER = 'cat';
  env.LC_ALL = 'C';
  delete env.GIT_EXTERNAL_DIFF;
  return env;
}

export function runGit(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const maxBytes = options.maxBytes ?? 256 * 1024 * 1024;
  const signal = options.signal ?? currentRunSignal();
  if (signal?.aborted) return Promise.reject(cancelled(args));
  return new Promise((resolve, reject) => {
    const child = spawn('git', gitArguments(args, options), {
      cwd: options.cwd,
      env: gitEnvironment(options),
      // No input, no pipe: /dev/null reads as the same end of input, and a pipe costs ~0.7 ms of CPU per spawn.
      stdio: [options.input !== undefined ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      // Its own process group: a kill reaches whatever git started (src/git/git-process-group.ts).
      ...groupSpawnOptions,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let stopped: 'timeout' | 'cancelled' | 'overflow' | null = null;
    const stop = (why: 'timeout' | 'cancelled' | 'overflow') => {
      if (stopped === null) stopped = why;
      watched.stop();
    };
    const timer = options.timeoutMs !== undefined ? setTimeout(() => stop('timeout'), options.timeoutMs) : undefined;
    const onAbort = () => stop('cancelled');
    child.stdout!.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) stop('overflow');
      else chunks.push(chunk);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < 64 * 1024) stderr += chunk.toString('utf8');
    });
    // git may exit before reading all of its stdin (or be killed): that is not our error.
    child.stdin?.on('error', () => undefined);
    const watched = watchGit(child, ({ code, signal: signalName, error }) => {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (error !== undefined) return reject(spawnError(error, args));
      if (stopped === 'cancelled') return reject(cancelled(args));
      if (stopped === 'timeout') {
        return reject(new AirspaceError('git', 'git-timeout', gitMessages.stopped(subcommand(args), 'timeout'), { args, signal: signalName }));
      }
      if (stopped === 'overflow') {
        return reject(new AirspaceError('git', 'git-output-too-large', gitMessages.outputTooLarge(subcommand(args), maxBytes), { args }));
      }
      if (code === null) {
        return reject(new AirspaceError('git', 'git-timeout', gitMessages.stopped(subcommand(args), signalName ?? 'timeout'), { args, signal: signalName }));
      }
      if (code !== 0 && !(options.okCodes ?? []).includes(code)) {
        return reject(
          new AirspaceError('git', 'git-failed', gitMessages.failed(subcommand(args), firstLine(stderr) || `exit ${code}`), {
            args,
            code,
            stderr,
          }),
        );
      }
      resolve({ code, stdout: Buffer.concat(chunks), stderr });
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

export interface GitStreamHandlers {
  /** Each chunk of stdout, in order. */
  readonly onData: (chunk: Buffer) => void;
  /** Once, when the process is gone: null after a clean exit, else why it ended (typed). */
  readonly onEnd: (error: AirspaceError | null) => void;
}

/** A git process that reads commands as they come (`cat-file --batch-command`). */
export interface GitStream {
  write(text: string): void;
  /** Ends git's input: it answers what it read, then exits. */
  end(): void;
  kill(): void;
}

/**
 * A long-lived git process fed through stdin, with the same pinned flags and environment as
 * `runGit`, killed when its signal (the run's by default) aborts. Output caps and timeouts belong to
 * the caller, which knows where one answer ends (src/git/object-session.ts).
 */
export function streamGit(
  args: readonly string[],
  options: Pick<GitOptions, 'cwd' | 'env' | 'inheritRepoEnv' | 'signal'>,
  handlers: GitStreamHandlers,
): GitStream {
  const signal = options.signal ?? currentRunSignal();
  let stopped = signal?.aborted === true;
  const onAbort = () => {
    stopped = true;
    watched.stop();
  };
  const child = spawn('git', gitArguments(args, {}), {
    cwd: options.cwd,
    env: gitEnvironment(options),
    stdio: ['pipe', 'pipe', 'pipe'],
    ...groupSpawnOptions,
  });
  let stderr = '';
  child.stdout.on('data', handlers.onData);
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 64 * 1024) stderr += chunk.toString('utf8');
  });
  child.stdin.on('error', () => undefined);
  const watched = watchGit(child, ({ code, signal: signalName, error }) => {
    signal?.removeEventListener('abort', onAbort);
    if (error !== undefined) handlers.onEnd(spawnError(error, args));
    else if (stopped) handlers.onEnd(cancelled(args));
    else if (code === 0) handlers.onEnd(null);
    else if (code === null)
      handlers.onEnd(new AirspaceError('git', 'git-timeout', gitMessages.stopped(subcommand(args), signalName ?? 'killed'), { args, signal: signalName }));
    else
      handlers.onEnd(new AirspaceError('git', 'git-failed', gitMessages.failed(subcommand(args), firstLine(stderr) || `exit ${code}`), { args, code, stderr }));
  });
  // Stopped before it could start: ended on the next tick, once the caller holds the stream.
  if (stopped) process.nextTick(() => watched.stop());
  else signal?.addEventListener('abort', onAbort, { once: true });
  return {
    write: (text) => {
      if (child.stdin.writable) child.stdin.write(text);
    },
    end: () => child.stdin.end(),
    kill: () => watched.stop(),
  };
}

function spawnError(error: NodeJS.ErrnoException, args: readonly string[]): AirspaceError {
  const missing = error.code === 'ENOENT';
  return new AirspaceError('environment', missing ? 'git-missing' : 'git-spawn', missing ? gitMessages.gitMissing : error.message, { args });
}

function cancelled(args: readonly string[]): AirspaceError {
  return new AirspaceError('git', 'git-cancelled', gitMessages.cancelled(subcommand(args)), { args });
}

/** stdout as UTF-8 text, trailing newline removed. */
export async function git(args: readonly string[], options: GitOptions): Promise<string> {
  const { stdout } = await runGit(args, options);
  return stdout.toString('utf8').replace(/\n$/, '');
}

/** NUL-separated fields of a `-z` output. */
export async function gitZ(args: readonly string[], options: GitOptions): Promise<string[]> {
  const { stdout } = await runGit(args, options);
  const text = stdout.toString('utf8');
  const fields = text.split('\0');
  if (fields.at(-1) === '') fields.pop();
  return fields;
}

/** The git command an error names: `fetch` for `git -c a=b fetch …`, not `-c`. */
function subcommand(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-c' || args[i] === '-C') i++;
    else if (!args[i]!.startsWith('-')) return args[i]!;
  }
  return String(args[0]);
}

export function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? ''
  );
}
