/**
 * The engine cannot import src/errors.ts (it is pure and self-contained, see
 * .dependency-cruiser.cjs), so it throws this small error with a stable code; the CLI maps the
 * code to an AirspaceError and a sentence from src/messages.
 */
export type EngineErrorCode = 'duplicate-agent-id' | 'same-agent-pair';

export class EngineError extends Error {
  readonly code: EngineErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: EngineErrorCode, details: Record<string, unknown> = {}) {
    super(`${code}: ${JSON.stringify(details)}`);
    this.name = 'EngineError';
    this.code = code;
    this.details = details;
  }
}
