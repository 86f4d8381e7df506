import type { HookName } from '../config/defaults.js';
import { EXIT } from '../errors.js';
import { hookMessages } from '../messages/hooks-and-check.js';
import type { Output } from '../report/output.js';
import { renderReportText } from '../report/render-text.js';
import { RunCutError, runAirspace, type RunOutcome } from '../run/run-airspace.js';
import type { PushedRef } from '../run/run-request.js';
import type { Sensing } from '../run/sensing.js';
import { jsonText } from '../report/sanitize-text.js';
import type { AirspaceReport } from '../report/check-report.js';

export type { PushedRef } from '../run/run-request.js';

export interface HookCheckInput {
  readonly cwd: string;
  readonly hook: HookName;
  readonly remoteName: string | null;
  readonly pushed: readonly PushedRef[];
  readonly strict: boolean;
  readonly json: boolean;
  readonly output: Output;
  /** Overrides every hook's configured budget (from AIRSPACE_HOOKS_BUDGET_MS). */
  readonly budgetMs?: number;
  /** pre-push of a `git push --dry-run` (src/cli/push-invocation.ts): judged, nothing published. */
  readonly dryRun?: boolean;
  /**
   * The performance.now() value the budget counts from: 0 (this process's start) by default; the
   * resident process passes the asking process's start, so both paths keep the same promise.
   */
  readonly startedAt?: number;
  /** Ends the run: the resident's asker went away. */
  readonly signal?: AbortSignal;
  /** How the run reads git in stages 1–3: the resident's warm airspace (src/run/sensing.ts); default live. */
  readonly sensing?: Sensing;
}

/**
 * What the installed hooks run. pre-commit reads only local state (no network: it uses the last
 * fetch and says how old it is); pre-push fetches, judges every pushed ref, may block, and
 * publishes this agent's beacon. The run keeps the hook's budget (counted from process start):
 * past it every git process is killed and the hook says in one line what it checked and what it
 * did not, then lets the commit or push through — or blocks, when configured fail-closed.
 */
export async function runHookCheck(input: HookCheckInput): Promise<{ exitCode: number }> {
  const { output, hook } = input;
  const request =
    hook === 'pre-push'
      ? { kind: hook, cwd: input.cwd, remote: input.remoteName, pushed: input.pushed, json: input.json, ...(input.dryRun ? { dryRun: true } : {}) }
      : { kind: hook, cwd: input.cwd, json: input.json };
  let outcome: RunOutcome;
  try {
    // performance.now() counts from process start: node's own start-up is part of the budget.
    outcome = await runAirspace(request, {
      startedAt: input.startedAt ?? 0,
      ...(input.signal ? { signal: input.signal } : {}),
      onProgress: output.progress,
      ...(input.budgetMs !== undefined ? { budgetMs: input.budgetMs } : {}),
      ...(input.sensing ? { sensing: input.sensing } : {}),
    });
  } catch (error) {
    if (!(error instanceof RunCutError)) throw error;
    const closed = error.plan.failClosed || input.strict;
    output.err(closed ? hookMessages.cutClosed(hook, error.message) : hookMessages.cutOpen(hook, error.message));
    return { exitCode: closed ? EXIT.steer : EXIT.ok };
  }
  if (outcome.idle) {
    if (hook === 'pre-push' && outcome.plan.mode !== 'off') output.err(hookMessages.nothingToCheck);
    return { exitCode: EXIT.ok };
  }
  const reports = outcome.judgements.map((j) => j.report);
  if (input.json) output.out(jsonText(reports.length === 1 ? reports[0] : reports));
  for (const text of hookErrorText(input.json ? [] : reports, outcome.notes, (report) => renderReportText(report, output.errStyle))) output.err(text);
  const block = outcome.failedClosed || reports.some((report) => report.verdict?.block === true);
  if (block && hook === 'pre-push' && !outcome.failedClosed) {
    const blocked = new Set(reports.filter((report) => report.verdict?.block === true).map((report) => report.scanned.ownship));
    const held = input.pushed.filter((ref) => !blocked.has(shortRef(ref.remoteRef)));
    if (held.length > 0)
      output.err(
        hookMessages.heldBack(
          held.map((ref) => shortRef(ref.remoteRef)),
          input.remoteName,
          held.map(refspec),
        ),
      );
  }
  return { exitCode: block ? EXIT.steer : EXIT.ok };
}

/**
 * What a hook writes to stderr after its run, in order: each report, then the run's notes. The
 * resident's ready answers render the same (src/app/ready-answer.ts), so the shell serves this text.
 */
export function hookErrorText(reports: readonly AirspaceReport[], notes: readonly string[], render: (report: AirspaceReport) => string): string[] {
  return [...reports.map(render), ...notes];
}

const ZERO = /^0+$/;

/** `refs/heads/x` → `x`, `refs/tags/v1` → `v1`: the name a user types and the report shows. */
function shortRef(ref: string): string {
  for (const prefix of ['refs/heads/', 'refs/tags/']) if (ref.startsWith(prefix)) return ref.slice(prefix.length);
  return ref;
}

/** What pushes this one ref as git's stdin line described it: a deletion, the same name, or local:remote. */
function refspec(ref: PushedRef): string {
  if (ZERO.test(ref.localSha)) return `:${ref.remoteRef}`;
  if (ref.localRef === ref.remoteRef) return shortRef(ref.remoteRef);
  return `${ref.localRef}:${ref.remoteRef}`;
}
