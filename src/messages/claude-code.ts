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
  entryRemoved: (path: string) => `  Claude Code: ${path} was edited since install; took out our PreToolUse hook and kept the rest`,
};
