/**
 * Typed errors. Layers throw `AirspaceError` with a code from the closed set below and the facts; the
 * CLI turns it into one line of text (src/messages) and an exit code (`exitCodeOf`, the one place
 * that maps errors to exit codes). Anything else is a bug: exit 3, its stack only under `--debug`.
 */
import { EngineError } from './engine/engine-error.js';
import { engineErrorText } from './messages/command-line.js';

export type ErrorKind = 'usage' | 'config' | 'environment' | 'git' | 'internal';

/** Every known error code, with the kind it belongs to. A new code is added here first. */
const ERROR_CODES = {
  // usage: the user's arguments or input
  'agent-duplicate': 'usage',
  'agent-spec': 'usage',
  'bad-channel': 'usage',
  'bad-merge-count': 'usage',
  'bad-time': 'usage',
  'duplicate-agent-id': 'usage',
  'intent-path-invalid': 'usage',
  'intent-path-outside': 'usage',
  'intent-too-many': 'usage',
  'radar-bad-interval': 'usage',
  'radar-bad-port': 'usage',
  'radar-no-frames': 'usage',
  'radar-out-dir': 'usage',
  'bad-debounce': 'usage',
  'bad-number': 'usage',
  'harness-needs-worktree': 'usage',
  'command-failed': 'usage',
  'peer-ambiguous': 'usage',
  'peer-not-found': 'usage',
  'unsafe-argument': 'usage',
  // config: the repository's airspace configuration
  'config-invalid': 'config',
  'config-ambiguous': 'config',
  'config-json': 'config',
  'config-too-large': 'config',
  'config-too-deep': 'config',
  'config-unreadable': 'config',
  'checks-off': 'config',
  'harness-settings-invalid': 'config',
  // environment: the repository, the remote, the machine, the data on disk
  'bare-repository': 'environment',
  'git-missing': 'environment',
  'git-spawn': 'environment',
  'beacon-clear-failed': 'environment',
  'beacon-list-failed': 'environment',
  'beacon-publish-failed': 'environment',
  'eval-data-bad-line': 'environment',
  'eval-data-join': 'environment',
  'eval-data-missing': 'environment',
  'no-commits': 'environment',
  'no-merges': 'environment',
  'no-ownship': 'environment',
  'no-trunk': 'environment',
  'over-budget': 'environment',
  'not-a-repository': 'environment',
  'not-in-worktree': 'environment',
  'one-class': 'environment',
  'radar-bundle-missing': 'environment',
  'radar-listen-failed': 'environment',
  'radar-out-write': 'environment',
  // git: a git process failed or answered something unexpected
  'git-cancelled': 'git',
  'git-failed': 'git',
  'git-output-too-large': 'git',
  'git-timeout': 'git',
  'no-git-dir': 'git',
  'beacon-work-missing': 'git',
  'peer-no-base': 'git',
  'no-worktree': 'git',
  'snapshot-failed': 'git',
  'unexpected-output': 'git',
  'worktree-no-git-dir': 'git',
  // internal: an invariant of our own code broke
  'same-agent-pair': 'internal',
  'not-an-object-id': 'internal',
} as const satisfies Record<string, ErrorKind>;

export type ErrorCode = keyof typeof ERROR_CODES;
/** The codes of one kind: `new AirspaceError('usage', 'git-timeout', …)` does not compile. */
export type ErrorCodeOf<K extends ErrorKind> = { [C in ErrorCode]: (typeof ERROR_CODES)[C] extends K ? C : never }[ErrorCode];

/** `(kind, code, message, details?)` with the code belonging to the kind. */
type ErrorArgs = { [K in ErrorKind]: [kind: K, code: ErrorCodeOf<K>, message: string, details?: Record<string, unknown>] }[ErrorKind];

export class AirspaceError extends Error {
  readonly kind: ErrorKind;
  readonly code: ErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(...[kind, code, message, details = {}]: ErrorArgs) {
    super(message);
    this.name = 'AirspaceError';
    this.kind = kind;
    this.code = code;
    this.details = details;
  }
}

/** Exit codes of the CLI: 0 clear or advisories only, 1 must steer (blocking mode), 2 usage/config/environment/git, 3 a bug. */
export const EXIT = { ok: 0, steer: 1, error: 2, internal: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

const EXIT_OF_KIND: Readonly<Record<ErrorKind, ExitCode>> = {
  usage: EXIT.error,
  config: EXIT.error,
  environment: EXIT.error,
  git: EXIT.error,
  internal: EXIT.internal,
};

/** The exit code for an error that reached the CLI: known errors by kind, anything else is a bug. */
export function exitCodeOf(error: unknown): ExitCode {
  const known = knownError(error);
  return known ? EXIT_OF_KIND[known.kind] : EXIT.internal;
}

export function isAirspaceError(error: unknown): error is AirspaceError {
  return error instanceof AirspaceError;
}

/**
 * The known error behind `error`, or null for a bug. The engine cannot import this file (it is pure,
 * see .dependency-cruiser.cjs), so its EngineError is translated here: a duplicate agent id comes from
 * the user's `--agent` list; a pair of one agent with itself is our own bug.
 */
export function knownError(error: unknown): AirspaceError | null {
  if (error instanceof AirspaceError) return error;
  if (error instanceof EngineError) {
    const kind = ERROR_CODES[error.code];
    return new AirspaceError(...([kind, error.code, engineErrorText(error.code, error.details), error.details] as ErrorArgs));
  }
  return null;
}
