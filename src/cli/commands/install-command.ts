import type { ClaudeCodeAction } from '../../app/install.js';
import { claudeCodeMessages, formatInstallResult, formatUninstallResult } from '../../messages/setup.js';
import { EXIT } from '../../errors.js';
import { graphBuildMessages } from '../../messages/channels.js';
import type { Output } from '../../report/output.js';
import { installAirspace, uninstallAirspace } from '../../app/install.js';

/** `install`: exit 0 when the hooks will run (or a manager snippet was printed), 2 when the user must act. */
export async function installCommand(cwd: string, args: { force: boolean; claudeCode?: boolean; worktree?: boolean }, output: Output): Promise<number> {
  const { result, build, claudeCode } = await installAirspace(cwd, {
    force: args.force,
    claudeCode: args.claudeCode === true,
    worktree: args.worktree === true,
  });
  output.out(formatInstallResult(result, cwd));
  if (build?.started) output.err(graphBuildMessages.status(build.status, false));
  if (claudeCode !== null) {
    for (const action of claudeCode) output.out(claudeCodeLine(action));
    if (claudeCode.some((action) => action.kind === 'added' && action.created)) output.out(claudeCodeMessages.laterWorktrees);
  }
  return result.ok ? EXIT.ok : EXIT.error;
}

export async function uninstallCommand(cwd: string, output: Output, args: { worktree?: boolean } = {}): Promise<number> {
  const { result, claudeCode } = await uninstallAirspace(cwd, { worktree: args.worktree === true });
  output.out(formatUninstallResult(result, cwd));
  for (const action of claudeCode) output.out(claudeCodeLine(action));
  return EXIT.ok;
}

function claudeCodeLine(action: ClaudeCodeAction): string {
  if (action.kind === 'added') return claudeCodeMessages.added(action.path, action.created);
  if (action.kind === 'already-installed') return claudeCodeMessages.already(action.path);
  if (action.kind === 'updated') return claudeCodeMessages.updated(action.path);
  if (action.kind === 'left-alone') return claudeCodeMessages.leftAlone(action.path);
  if (action.kind === 'restored') return claudeCodeMessages.restored(action.path, action.removed);
  return claudeCodeMessages.entryRemoved(action.path);
}
