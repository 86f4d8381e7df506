import { AirspaceError, EXIT } from '../../errors.js';
import type { AirspaceReport } from '../../report/check-report.js';
import { captureOutput, type CapturedOutput } from '../../report/capture-output.js';
import { checkWorktree, scanAgents } from '../../app/check.js';

/**
 * The one module through which the agent interfaces (`mcp`, `watch`) run the pipeline. `check`
 * and `scan` call the door exactly as the commands do (src/cli/commands/check-command.ts),
 * with the caller's signal: an MCP request's cancellation or watch's Ctrl-C ends the run and its
 * git processes. `intent` and `inbox` go through the command functions themselves, their output
 * captured instead of printed, so an agent and a person always see the same result.
 */

export interface RunOptions {
  /** Ends the run: the client cancelled, or watch is stopping. */
  readonly signal?: AbortSignal;
}

/**
 * `check --json`: this worktree against all traffic, with the verdict (null: the checks are off).
 * It asks the repository's resident first, as the `check` command does (docs/decisions/resident.md):
 * the same question, the same one-shot fallback (which starts a resident), the same report.
 */
export async function runCheck(cwd: string, options: { fetch?: boolean } & RunOptions = {}): Promise<AirspaceReport | null> {
  return checkWorktree(cwd, {
    ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
    json: true,
    ...(options.signal ? { signal: options.signal } : {}),
    askResident: true,
  });
}

/** `scan --json`: every pair of agents (or exactly the `NAME=REV` ones). */
export async function runScan(cwd: string, options: { agents?: readonly string[]; fetch?: boolean } & RunOptions = {}): Promise<AirspaceReport> {
  return scanAgents(cwd, { fetch: options.fetch ?? false, agents: options.agents ?? [], embed: true, ...(options.signal ? { signal: options.signal } : {}) });
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
