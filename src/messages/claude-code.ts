/** Wording of `install --claude-code` / `uninstall` for the Claude Code settings file. */
export const claudeCodeMessages = {
  notJson: (path: string) => `${path} is not valid JSON; fix it (or move it away) and run install --claude-code again`,
  unexpectedShape: (path: string) => `${path}: "hooks" must be an object and "hooks.PreToolUse" a list; left untouched`,
  needsWorktree: 'install --claude-code needs a worktree (Claude Code reads .claude/settings.json from the project folder)',
  added: (path: string, created: boolean) =>
    `  Claude Code: ${created ? 'created' : 'added the PreToolUse hook to'} ${path}${created ? ' with the PreToolUse hook' : ''} (edits are checked before they happen)`,
  already: (path: string) => `  Claude Code: already installed (${path})`,
  restored: (path: string, removed: boolean) =>
    removed ? `  Claude Code: removed ${path} (install had created it)` : `  Claude Code: restored ${path} as it was before install`,
  updated: (path: string) => `  Claude Code: updated the hook command in ${path} (it now finds the package in the main worktree)`,
  leftAlone: (path: string) => `  Claude Code: ${path} has settings of its own; left alone (run install --claude-code in that worktree to add the hook)`,
  laterWorktrees:
    '  Claude Code: a worktree made later has .claude/settings.json only if it is committed; commit it to cover them (the hook finds the CLI in the main worktree)',
  // Printed by the hook command itself through `sh` inside single quotes: no single quote here.
  hookNotInstalled:
    'airspace-hooks: the hook script is not in this worktree or the main one (node_modules/airspace-hooks), edit not checked (fix: npm install)',
  entryRemoved: (path: string) => `  Claude Code: ${path} was edited since install; took out our PreToolUse hook and kept the rest`,
};
