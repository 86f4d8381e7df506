import type { GraphBuildRequestResult } from '../graph/request-graph-build.js';
import { installClaudeCode, uninstallClaudeCode, type ClaudeCodeAction } from '../install/claude-code-settings.js';
import { install, uninstall, type InstallResult, type UninstallResult } from '../install/index.js';

export type { ClaudeCodeAction } from '../install/claude-code-settings.js';

export interface InstallOutcome {
  readonly result: InstallResult;
  /** The first import-graph build, started in the background when the hooks will run (null: not started or no usable repository). */
  readonly build: GraphBuildRequestResult | null;
  /** What `--claude-code` did to each worktree's .claude/settings.json (null without the flag). */
  readonly claudeCode: readonly ClaudeCodeAction[] | null;
}

/** `install [--force] [--worktree] [--claude-code]`: the git hooks, the first graph build off the critical path, and the Claude Code hook on request. */
export async function installAirspace(cwd: string, options: { force: boolean; claudeCode: boolean; worktree?: boolean }): Promise<InstallOutcome> {
  const result = await install(cwd, { force: options.force, worktree: options.worktree === true });
  // The first import graph is built off the critical path, so the first push does not wait for it.
  const build = result.ok ? await (await import('./graph.js')).startGraphBuild(cwd) : null;
  const claudeCode = options.claudeCode ? await installClaudeCode(cwd) : null;
  return { result, build, claudeCode };
}

/**
 * `uninstall [--worktree]`: our git hooks out, and our Claude Code entries out of every worktree
 * that has one; with `--worktree` only this worktree's hooks dir (what `install --worktree` joined).
 */
export async function uninstallAirspace(
  cwd: string,
  options: { worktree?: boolean } = {},
): Promise<{ result: UninstallResult; claudeCode: readonly ClaudeCodeAction[] }> {
  const result = await uninstall(cwd, { worktree: options.worktree === true });
  return { result, claudeCode: options.worktree === true ? [] : await uninstallClaudeCode(cwd) };
}
