/**
 * What differs between the agent harnesses whose edit-time hook `install --<harness>` writes: where
 * the settings file is, which event and matcher, how one entry is shaped, and how the hook command
 * finds the project folder. Everything else (merge, record, byte-exact uninstall, other worktrees)
 * is src/install/harness-settings.ts, the same for all of them. The contracts and their sources:
 * docs/decisions/agent-harnesses.md.
 */
export type HarnessId = 'claude-code' | 'cursor' | 'gemini' | 'codex';

export interface HarnessSpec {
  readonly id: HarnessId;
  /** As the harness calls itself in our messages. */
  readonly label: string;
  /** The settings file, relative to the worktree's top level. */
  readonly settingsFile: readonly string[];
  /** The key under `hooks` that holds the edit-time hook. */
  readonly event: string;
  /**
   * `grouped`: `hooks[event]` is a list of `{matcher, hooks: [{type, command, …}]}` (Claude Code,
   * Gemini CLI, Codex); `flat`: a list of `{command, matcher, …}` (Cursor).
   */
  readonly layout: 'grouped' | 'flat';
  /** The entry install adds, for the hook command. */
  readonly entry: (command: string) => Record<string, unknown>;
  /** Keys a settings file we create starts with (Cursor refuses a hooks.json without `version`). */
  readonly created: Record<string, unknown>;
  /** The adapter script, relative to the package root: also how our entry is recognised. */
  readonly script: string;
  /** Scripts earlier releases pointed at (still shipped, still working): their entries are ours too, and install replaces them. */
  readonly earlierScripts: readonly string[];
  /**
   * A shell expression for the project folder as the harness runs the command: its own variable,
   * or what the harness documents as the command's working directory.
   */
  readonly projectDir: string;
  /** Record of what install did, in the worktree's git dir (`airspace/<name>`). */
  readonly record: string;
}

const claudeCode: HarnessSpec = {
  id: 'claude-code',
  label: 'Claude Code',
  settingsFile: ['.claude', 'settings.json'],
  event: 'PreToolUse',
  layout: 'grouped',
  entry: (command) => ({ matcher: 'Edit|MultiEdit|Write|NotebookEdit', hooks: [{ type: 'command', command, timeout: 30 }] }),
  created: {},
  // CommonJS: Node starts it sooner than an ES module (docs/decisions/resident.md, "The CommonJS hot path").
  script: 'examples/claude-code/pre-edit.cjs',
  earlierScripts: ['examples/claude-code/pre-edit.mjs'],
  projectDir: '$CLAUDE_PROJECT_DIR',
  record: 'claude-code-settings.json',
};

// Cursor's file tools are `Write` (create and edit) and `Delete`; project hooks run from the project
// root. No `timeout`: its unit is not documented the same way everywhere; Cursor's default applies.
const cursor: HarnessSpec = {
  id: 'cursor',
  label: 'Cursor',
  settingsFile: ['.cursor', 'hooks.json'],
  event: 'preToolUse',
  layout: 'flat',
  entry: (command) => ({ command, matcher: 'Write|Delete' }),
  created: { version: 1 },
  script: 'examples/cursor/pre-tool-use.mjs',
  earlierScripts: [],
  projectDir: '${CURSOR_PROJECT_DIR:-$PWD}',
  record: 'cursor-hooks.json',
};

// Gemini CLI's edit tools are `write_file` and `replace`; its timeout is in milliseconds.
const gemini: HarnessSpec = {
  id: 'gemini',
  label: 'Gemini CLI',
  settingsFile: ['.gemini', 'settings.json'],
  event: 'BeforeTool',
  layout: 'grouped',
  entry: (command) => ({
    matcher: 'write_file|replace',
    hooks: [{ name: 'airspace-hooks', type: 'command', command, timeout: 30_000, description: 'airspace-hooks: check the airspace before an edit' }],
  }),
  created: {},
  script: 'examples/gemini/before-tool.mjs',
  earlierScripts: [],
  projectDir: '$GEMINI_PROJECT_DIR',
  record: 'gemini-settings.json',
};

// Codex edits files with `apply_patch` (`Edit` and `Write` are its matcher aliases); it runs the
// command in the session's folder, which may be below the top level, and has no project variable.
const codex: HarnessSpec = {
  id: 'codex',
  label: 'Codex',
  settingsFile: ['.codex', 'hooks.json'],
  event: 'PreToolUse',
  layout: 'grouped',
  entry: (command) => ({ matcher: 'apply_patch|Edit|Write', hooks: [{ type: 'command', command, timeout: 30 }] }),
  created: {},
  script: 'examples/codex/pre-tool-use.mjs',
  earlierScripts: [],
  projectDir: '$(git rev-parse --show-toplevel 2>/dev/null || pwd)',
  record: 'codex-hooks.json',
};

export const HARNESSES: Readonly<Record<HarnessId, HarnessSpec>> = { 'claude-code': claudeCode, cursor, gemini, codex };
export const HARNESS_IDS = Object.keys(HARNESSES) as HarnessId[];
