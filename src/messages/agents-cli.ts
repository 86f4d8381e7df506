/** Help text of the agent-facing commands (`mcp`, `diff`, `watch`) and the harness install flags. */
export const agentsCliMessages = {
  commands: {
    mcp: 'serve the checks as MCP tools on stdin/stdout (for Claude Code, Cursor, Codex…)',
    diff: "a peer's hunks near your own changes, with their commit subjects",
    watch: 'live view of the advisories and the pair matrix, updated as any worktree changes',
  },
  options: {
    peer: 'the peer: an id from check/scan, a branch name or a worktree folder name',
    file: "only this file (all of the peer's hunks there when you have not touched it)",
    near: 'a peer hunk within this many lines of your changes counts as near',
    context: 'context lines around each hunk',
    maxHunks: 'at most this many hunks',
    maxBytes: 'at most this many bytes of hunk lines',
    watchJson: 'stream NDJSON events (advisory raised / changed / cleared) instead of the live view',
    debounce: 'ms of quiet after a change before re-scanning',
    claudeCode: 'also add the PreToolUse hook to .claude/settings.json (uninstall restores it)',
  },
};
