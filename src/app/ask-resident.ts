import { askResident, type FallbackReason } from '../resident/ask-resident.js';
import { findCommonDir } from '../resident/resident-paths.js';
import { residentWanted } from '../resident/resident-wanted.js';
import type { CheckAnswer } from '../resident/resident-protocol.js';

/**
 * The door to the resident process for the askers (src/cli/hook-fast-path.ts, `check`): asking
 * it, and nothing that loads the pipeline — the hooks' fast path must cost a socket round trip,
 * not a module graph. The resident's own commands are in src/app/resident.ts.
 */
export { askResident, type FallbackReason } from '../resident/ask-resident.js';
export { findCommonDir, findWorktree } from '../resident/resident-paths.js';
export { residentWanted } from '../resident/resident-wanted.js';
export type { CheckAnswer, HookAnswer, PushedRefLine } from '../resident/resident-protocol.js';

interface CheckQuestion {
  readonly fetch?: boolean;
  readonly as?: 'pre-commit' | 'pre-push' | null;
  readonly json?: boolean;
  readonly signal?: AbortSignal;
}

/** No usable resident (none, dead, another build): the one-shot path should start one. */
export const STARTABLE: readonly FallbackReason[] = ['absent', 'stale', 'other-version'];

/** `check` asked of the resident: its outcome, or whether the one-shot run should start one. */
export async function checkWithResident(cwd: string, options: CheckQuestion): Promise<{ outcome?: CheckAnswer; startResident: boolean }> {
  if (!residentWanted()) return { startResident: false };
  const commonDir = findCommonDir(cwd);
  if (commonDir === null) return { startResident: false };
  const asked = await askResident(
    commonDir,
    {
      type: 'check',
      cwd,
      env: plainEnvironment(process.env),
      ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
      ...(options.as ? { as: options.as } : {}),
      json: options.json ?? false,
    },
    options.signal ? { signal: options.signal } : {},
  );
  if (!asked.ok) return { startResident: STARTABLE.includes(asked.reason) };
  const outcome = asked.answer as Partial<CheckAnswer> | null;
  const valid =
    outcome !== null && typeof outcome === 'object' && Array.isArray(outcome.notes) && typeof outcome.failedClosed === 'boolean' && 'report' in outcome;
  return valid ? { outcome: outcome as CheckAnswer, startResident: false } : { startResident: false };
}

/** The asker's environment as the resident applies it to the run (src/resident/run-queue.ts). */
export function plainEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const plain: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) plain[name] = value;
  return plain;
}
