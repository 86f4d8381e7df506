import { AirspaceError, EXIT } from '../../errors.js';
import type { AirspaceReport } from '../../report/check-report.js';
import { captureOutput, type CapturedOutput } from '../../report/capture-output.js';

/**
 * The one module through which the agent interfaces (`mcp`, `watch`) run the pipeline. Each call
 * goes through the same command function the terminal user runs (`check --json`, `scan --json`,
 * `intent`, `inbox`), with its output captured instead of printed, so an agent and a person always
 * see the same run; when the run layer's entry point changes, the commands change and this follows.
 */

export interface RunOptions {
  /** Aborted: the result is not wanted any more (a newer run superseded it). */
  readonly signal?: AbortSignal;
}

/** `check --json`: this worktree against all traffic, with the verdict; `steer` when exit 1. */
export async function runCheck(cwd: string, options: { fetch?: boolean } & RunOptions = {}): Promise<{ report: AirspaceReport; steer: boolean }> {
  const { checkCommand } = await import('./check-command.js');
  const output = captureOutput();
  const code = await checkCommand(cwd, { hook: null, fetch: options.fetch ?? false, json: true, strict: false }, output);
  failOn(code, output, [EXIT.ok, EXIT.steer]);
  options.signal?.throwIfAborted();
  return { report: JSON.parse(output.stdout()) as AirspaceReport, steer: code === EXIT.steer };
}

/** `scan --json`: every pair of agents (or exactly the `NAME=REV` ones). */
export async function runScan(cwd: string, options: { agents?: readonly string[]; fetch?: boolean } & RunOptions = {}): Promise<AirspaceReport> {
  const { scanCommand } = await import('./check-command.js');
  const output = captureOutput();
  const code = await scanCommand(cwd, { agents: options.agents ?? [], at: undefined, channels: undefined, fetch: options.fetch ?? false, json: true }, output);
  failOn(code, output, [EXIT.ok]);
  options.signal?.throwIfAborted();
  return JSON.parse(output.stdout()) as AirspaceReport;
}

/** `intent add|list|clear --json`: the declared paths after the action. */
export async function runIntent(cwd: string, action: 'add' | 'list' | 'clear', paths: readonly string[]): Promise<readonly string[]> {
  const { intentCommand } = await import('./intent-command.js');
  const output = captureOutput();
  failOn(await intentCommand(cwd, { action, paths, json: true }, output), output, [EXIT.ok]);
  return (JSON.parse(output.stdout()) as { intent: string[] }).intent;
}

/** `inbox --json [--ack]`: the messages other agents left this one. */
export async function runInbox(cwd: string, ack: boolean): Promise<{ messages: readonly unknown[] }> {
  const { inboxCommand } = await import('./inbox-command.js');
  const output = captureOutput();
  failOn(await inboxCommand(cwd, { json: true, ack }, output), output, [EXIT.ok]);
  return JSON.parse(output.stdout()) as { messages: readonly unknown[] };
}

/** A command that reported an error on stderr (exit 2) becomes the error it reported. */
function failOn(code: number, output: CapturedOutput, ok: readonly number[]): void {
  if (!ok.includes(code)) throw new AirspaceError('usage', 'command-failed', output.stderr().trim() || `exit ${code}`);
}
