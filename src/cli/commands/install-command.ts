import { installClaudeCode, uninstallClaudeCode, type ClaudeCodeAction } from '../../install/claude-code-settings.js';
import { install, uninstall } from '../../install/index.js';
import { claudeCodeMessages } from '../../messages/claude-code.js';
import { formatInstallResult, formatUninstallResult } from '../../messages/install.js';
import { EXIT } from '../../errors.js';
import { graphBuildMessages } from '../../messages/graph-build.js';
import type { Output } from '../../report/output.js';

/** `install`: exit 0 when the hooks will run (or a manager snippet was printed), 2 when the user must act. */
export async function installCommand(cwd: string, args: { force: boolean; claudeCode?: boolean }, output: Output): Promise<number> {
  const result = await install(cwd, { force: args.force });
  output.out(formatInstallResult(result, cwd));
  if (result.ok) {
    // The first import graph is built off the critical path, so the first push does not wait for it.
    const build = await (await import('../../run/build-graph.js')).startGraphBuild(cwd);
    if (build?.started) output.err(graphBuildMessages.status(build.status, false));
  }
  if (args.claudeCode) output.out(claudeCodeLine(await installClaudeCode(cwd)));
  return result.ok ? EXIT.ok : EXIT.error;
}

export async function uninstallCommand(cwd: string, output: Output): Promise<number> {
  const result = await uninstall(cwd);
  output.out(formatUninstallResult(result, cwd));
  const claude = await uninstallClaudeCode(cwd);
  if (claude !== null) output.out(claudeCodeLine(claude));
  return EXIT.ok;
}

function claudeCodeLine(action: ClaudeCodeAction): string {
  if (action.kind === 'added') return claudeCodeMessages.added(action.path, action.created);
  if (action.kind === 'already-installed') return claudeCodeMessages.already(action.path);
  if (action.kind === 'restored') return claudeCodeMessages.restored(action.path, action.removed);
  return claudeCodeMessages.entryRemoved(action.path);
}
