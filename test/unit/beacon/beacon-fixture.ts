import type { Beacon } from '../../../src/beacon/beacon-schema.js';

export const SHA_A = 'a'.repeat(40);
export const SHA_B = 'b'.repeat(40);
export const NOW = Date.UTC(2026, 10, 30, 12, 0, 0);

/** A valid beacon; override any field. */
export function makeBeacon(overrides: Partial<Beacon> = {}): Beacon {
  return {
    schema: 1,
    agent: 'feature/login',
    branch: 'feature/login',
    head: SHA_A,
    base: SHA_B,
    workingSet: {
      base: SHA_B,
      files: [
        {
          file: 'src/auth.ts',
          status: 'M',
          ranges: [
            [10, 14],
            [40, 41],
          ],
          origin: 'uncommitted',
          lastEditTime: NOW - 1000,
        },
        { file: 'docs/new.md', status: 'A', whole: true, origin: 'committed' },
      ],
    },
    intent: ['src/session.ts'],
    committedWork: 3,
    startedAt: NOW - 3_600_000,
    updatedAt: NOW,
    note: 'refactoring login',
    ...overrides,
  };
}
