import type { HarnessAction, HarnessId, HarnessOutcome } from '../../app/install.js';
import { formatInstallResult, formatUninstallResult, harnessMessages } from '../../messages/setup.js';
import { EXIT } from '../../errors.js';
import { graphBuildMessages } from '../../messages/channels.js';
import type { Output } from '../../report/output.js';
import { installAirspace, uninstallAirspace } from '../../app/install.js';

interface InstallArgs {
  force: boolean;
  claudeCode?: boolean;
  cursor?: boolean;
  gemini?: boolean;
  codex?: boolean;
  worktree?: boolean;
}

/** `install`: exit 0 when the hooks will run (or a manager snippet was printed), 2 when the user must act. */
export async function installCommand(cwd: string, args: InstallArgs, output: Output): Promise<number> {
  const asked: Record<HarnessId, boolean | undefined> = { 'claude-code': args.claudeCode, cursor: args.cursor, gemini: args.gemini, codex: args.codex };
  const { result, build, harnesses } = await installAirspace(cwd, {
    force: args.force,
    harnesses: (Object.keys(asked) as HarnessId[]).filter((id) => asked[id] === true),
    worktree: args.worktree === true,
  });
  output.out(formatInstallResult(result, cwd));
  if (build?.started) output.err(graphBuildMessages.status(build.status, false));
  for (const harness of harnesses) {
    for (const action of harness.actions) output.out(harnessLine(harness, action));
    if (harness.actions.some((action) => action.kind === 'added' && action.created)) {
      output.out(harnessMessages.laterWorktrees(harness.spec.label, harness.spec.settingsFile.join('/')));
    }
    const hint = harnessMessages.enableHints[harness.spec.id];
    if (hint !== undefined) output.out(hint);
  }
  return result.ok ? EXIT.ok : EXIT.error;
}

export async function uninstallCommand(cwd: string, output: Output, args: { worktree?: boolean } = {}): Promise<number> {
  const { result, harnesses } = await uninstallAirspace(cwd, { worktree: args.worktree === true });
  output.out(formatUninstallResult(result, cwd));
  for (const harness of harnesses) for (const action of harness.actions) output.out(harnessLine(harness, action));
  return EXIT.ok;
}

function harnessLine({ spec }: HarnessOutcome, action: HarnessAction): string {
  const { label, id, event } = spec;
  if (action.kind === 'added') return harnessMessages.added(label, event, action.path, action.created);
  if (action.kind === 'already-installed') return harnessMessages.already(label, action.path);
  if (action.kind === 'updated') return harnessMessages.updated(label, action.path);
  if (action.kind === 'left-alone') return harnessMessages.leftAlone(label, id, action.path);
  if (action.kind === 'restored') return harnessMessages.restored(label, action.path, action.removed);
  return harnessMessages.entryRemoved(label, event, action.path);
}
