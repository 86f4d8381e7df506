import type { GraphBuildRequestResult } from '../graph/request-graph-build.js';
import { installHarness, uninstallHarness, type HarnessAction } from '../install/harness-settings.js';
import { HARNESS_IDS, HARNESSES, type HarnessId, type HarnessSpec } from '../install/harness-specs.js';
import { install, uninstall, type InstallResult, type UninstallResult } from '../install/index.js';

export type { HarnessAction } from '../install/harness-settings.js';
export type { HarnessId, HarnessSpec } from '../install/harness-specs.js';

/** What install or uninstall did to one harness's settings file, per worktree. */
export interface HarnessOutcome {
  readonly spec: HarnessSpec;
  readonly actions: readonly HarnessAction[];
}

export interface InstallOutcome {
  readonly result: InstallResult;
  /** The first import-graph build, started in the background when the hooks will run (null: not started or no usable repository). */
  readonly build: GraphBuildRequestResult | null;
  /** What `--claude-code`, `--cursor`, `--gemini`, `--codex` did, in that order (only the harnesses asked for). */
  readonly harnesses: readonly HarnessOutcome[];
}

/** `install [--force] [--worktree] [--claude-code] [--cursor] [--gemini] [--codex]`: the git hooks, the first graph build off the critical path, and the harnesses' edit-time hooks on request. */
export async function installAirspace(cwd: string, options: { force: boolean; harnesses?: readonly HarnessId[]; worktree?: boolean }): Promise<InstallOutcome> {
  const result = await install(cwd, { force: options.force, worktree: options.worktree === true });
  // The first import graph is built off the critical path, so the first push does not wait for it.
  const build = result.ok ? await (await import('./graph.js')).startGraphBuild(cwd) : null;
  const asked = new Set(options.harnesses ?? []);
  const harnesses: HarnessOutcome[] = [];
  for (const id of HARNESS_IDS.filter((harness) => asked.has(harness))) {
    harnesses.push({ spec: HARNESSES[id], actions: await installHarness(HARNESSES[id], cwd) });
  }
  return { result, build, harnesses };
}

/**
 * `uninstall [--worktree]`: our git hooks out, and our entries out of every harness's settings in
 * every worktree that has one; with `--worktree` only this worktree's hooks dir (what `install --worktree` joined).
 */
export async function uninstallAirspace(
  cwd: string,
  options: { worktree?: boolean } = {},
): Promise<{ result: UninstallResult; harnesses: readonly HarnessOutcome[] }> {
  const result = await uninstall(cwd, { worktree: options.worktree === true });
  if (options.worktree === true) return { result, harnesses: [] };
  const harnesses: HarnessOutcome[] = [];
  for (const id of HARNESS_IDS) {
    const actions = await uninstallHarness(HARNESSES[id], cwd);
    if (actions.length > 0) harnesses.push({ spec: HARNESSES[id], actions });
  }
  return { result, harnesses };
}
