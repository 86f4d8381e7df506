import { describe, expect, it } from 'vitest';
import { EngineError } from '../../../src/engine/engine-error.js';
import { AirspaceError, EXIT, exitCodeOf, knownError } from '../../../src/errors.js';

describe('exit codes, mapped in one place (src/errors.ts)', () => {
  it('known errors exit 2 whatever their kind, except an internal invariant', () => {
    expect(exitCodeOf(new AirspaceError('usage', 'bad-time', 'x'))).toBe(EXIT.error);
    expect(exitCodeOf(new AirspaceError('config', 'config-json', 'x'))).toBe(EXIT.error);
    expect(exitCodeOf(new AirspaceError('environment', 'eval-data-missing', 'x'))).toBe(EXIT.error);
    expect(exitCodeOf(new AirspaceError('git', 'git-timeout', 'x'))).toBe(EXIT.error);
    expect(exitCodeOf(new AirspaceError('internal', 'same-agent-pair', 'x'))).toBe(EXIT.internal);
  });

  it('anything that is not a known error is a bug: exit 3', () => {
    expect(exitCodeOf(new TypeError('undefined is not a function'))).toBe(EXIT.internal);
    expect(exitCodeOf('thrown string')).toBe(EXIT.internal);
    expect(knownError(new Error('x'))).toBeNull();
  });

  it("the engine's errors: a duplicate agent is the user's input (usage), a self-pair is our bug", () => {
    const duplicate = knownError(new EngineError('duplicate-agent-id', { id: 'a' }));
    expect(duplicate).toMatchObject({ kind: 'usage', code: 'duplicate-agent-id' });
    expect(duplicate?.message).toContain('"a" is listed twice');
    expect(exitCodeOf(new EngineError('duplicate-agent-id', { id: 'a' }))).toBe(EXIT.error);
    expect(exitCodeOf(new EngineError('same-agent-pair', { id: 'a' }))).toBe(EXIT.internal);
  });

  it('a code must belong to its kind (checked by the type-check in npm test)', () => {
    // @ts-expect-error git-timeout is a git error, not a usage error
    const wrongKind = new AirspaceError('usage', 'git-timeout', 'x');
    // @ts-expect-error codes are a closed set
    const unknownCode = new AirspaceError('usage', 'EVAL_DATA_MISSING', 'x');
    expect([wrongKind.code, unknownCode.code]).toEqual(['git-timeout', 'EVAL_DATA_MISSING']);
  });
});
