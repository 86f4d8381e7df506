/**
 * Typed errors. Layers throw `AirspaceError` with a code and the facts; the CLI turns it into one
 * line of text (src/messages) and an exit code. No stack trace ever reaches the user.
 */
export type ErrorKind = 'usage' | 'config' | 'environment' | 'git' | 'internal';

export class AirspaceError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(kind: ErrorKind, code: string, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'AirspaceError';
    this.kind = kind;
    this.code = code;
    this.details = details;
  }
}

/** Exit codes of the CLI: 0 clear or advisories only, 1 must steer (blocking mode), 2 usage/config/environment. */
export const EXIT = { ok: 0, steer: 1, error: 2 } as const;

export function isAirspaceError(error: unknown): error is AirspaceError {
  return error instanceof AirspaceError;
}
