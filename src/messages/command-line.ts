/**
 * The command line: help text, usage errors, the error lines of git and of our own bugs. One
 * section per concern, each opened by a `// --- name: what ---` line; a section exports named
 * message objects (`as const`, or a record typed by its codes) and the few functions that word a
 * typed result. Symbols are imported by name.
 */

import type { EngineErrorCode } from '../engine/engine-error.js';

// --- cli: help text and one-line results of the full CLI (src/cli/main.ts) ---

export const cliMessages = {
  usage: 'airspace-hooks <command>\n\nCollision avoidance for parallel agents in one git repository.',
  needCommand: 'name a command (see --help)',
  usageError: (detail: string) => `airspace-hooks: ${detail} (see airspace-hooks --help)`,
  error: (detail: string) => `airspace-hooks: ${detail}`,
  internal: (detail: string) => `internal error: ${detail}`,
  noBeacons: 'no beacons on the remote',
  cwdGone: 'the current directory no longer exists (deleted or moved); cd into the repository and run the command again',
  noCommits: 'this repository has no commits yet: nothing to publish',
  noTrunkForBeacon: 'no trunk to measure this agent\'s work against (set "trunk" in the config, or fetch the remote)',
  radarServing: (url: string) => `radar live at ${url} (Ctrl-C to stop)`,
  radarWritten: (file: string, agents: number, advisories: number) =>
    `radar written to ${file}: ${agents} agents, ${advisories} advisories. Open it in a browser.`,
  badChannel: (name: string, known: readonly string[]) => `unknown channel "${name}" (known: ${known.join(', ')})`,
  badTime: (at: string) => `--at "${at}" is neither an ISO 8601 time nor a revision`,
  checkNoStrict:
    'check has no --strict: it already fails on every error (exit 2, or 3 for a bug) and lets nothing through; to make a hook block on an error, set "failClosed" for it in the config (or run `airspace-hooks hook pre-push --strict`)',
  commands: {
    check: 'this worktree against all known traffic (what the hooks run)',
    scan: 'every pair of agents in the airspace',
    doctor: 'what is installed and what works, with fixes',
    install: 'install the git hooks (pre-commit warns, pre-push blocks the agent that must steer)',
    uninstall: 'remove the hooks and restore what was there',
    beacon: "publish, list or clear this agent's beacon on the remote",
    intent: 'declare files you are about to touch (add | list | clear)',
    inbox: 'messages other agents sent you on a traffic advisory',
    radar: 'write (or serve) the 3D radar page of the airspace',
    demo: 'play the demo: agents converge, one steers, all land without conflicts',
    replay: "measure the model on this repository's own merge history",
    graph: 'graph build: build or refresh the import graph now (the hooks do it in the background)',
  },
  options: {
    hook: 'run as this hook would (modes and budgets from the config)',
    fetch: 'fetch the traffic from the remote first',
    json: 'machine-readable output (documented in docs/json-output.md)',
    agent: 'an agent as NAME=REV instead of discovery (repeatable)',
    at: 'evaluate as of a past moment: a time (ISO 8601) or a revision',
    channels: 'comma-separated channels: overlap,proximity,breadth,dependency,tree,merge,symbol',
    force: 'install even in CI or over a foreign core.hooksPath',
    stale: 'with clear: withdraw every beacon of this clone whose line of work no longer exists (a deleted branch, discarded work)',
    worktree: "join this worktree's own hooks dir when core.hooksPath sends git elsewhere (a harness's): its hooks are kept and run first",
    uninstallWorktree: "only from this worktree's own hooks dir (what install --worktree joined); the shared .git/hooks stays",
    note: 'a short note carried in the beacon',
    ttl: 'intent add: the declared files expire after this many minutes (default: until cleared)',
    ack: 'mark the messages as read',
    out: 'the HTML file to write',
    serve: 'serve the radar on localhost and refresh it as the agents move',
    interval: 'ms between re-scans when serving',
    demoDir: 'where to build the demo repositories (default: a temp dir)',
    merges: 'how many recent merges to replay',
    graphForce: 'graph build: read every file again, not only what changed since the last build',
    graphBackground: 'graph build: run detached and niced, as the hooks start it',
    graphAfterPid: 'graph build: start reading only once this process has exited (the hook that asked), at most 10 s later',
  },
} as const;

// --- agents-cli: help text of the agent-facing commands (mcp, diff, watch) ---

/** Help text of the agent-facing commands (`mcp`, `diff`, `watch`) and the harness install flags. */
export const agentsCliMessages = {
  commands: {
    mcp: 'serve the checks as MCP tools on stdin/stdout (for Claude Code, Cursor, Codex…)',
    diff: "a peer's hunks near your own changes, with their commit subjects",
    watch: 'live view of the advisories and the pair matrix, updated as any worktree changes',
    resident: "this repository's resident process, which keeps the airspace warm: status | stop",
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
    cursor: 'also add the preToolUse hook to .cursor/hooks.json (uninstall restores it)',
    gemini: 'also add the BeforeTool hook to .gemini/settings.json (uninstall restores it)',
    codex: 'also add the PreToolUse hook to .codex/hooks.json (uninstall restores it)',
  },
} as const;

// --- usage: command-line input the user got wrong ---

/** Sentences for command-line input the user got wrong: one line each, naming the fix. */
export const usageMessages = {
  duplicateAgent: (id: string, first: string, second: string) => `--agent ${id} is given twice (${first} and ${second}); give each agent a distinct NAME`,
  radarOutDirMissing: (file: string, dir: string) => `--out ${file}: the folder ${dir} does not exist; create it or pick another path`,
  radarOutUnwritable: (file: string, reason: string) => `--out ${file} cannot be written: ${reason}`,
} as const;

// --- errors: engine errors and the bug (exit 3) hint ---

/** The sentence for an error the pure engine raised (src/errors.ts translates it). */
export function engineErrorText(code: EngineErrorCode, details: Readonly<Record<string, unknown>>): string {
  const id = typeof details.id === 'string' ? JSON.stringify(details.id) : 'an agent';
  switch (code) {
    case 'duplicate-agent-id':
      return `agent ${id} is listed twice: give each agent once`;
    case 'same-agent-pair':
      return `agent ${id} was paired with itself`;
  }
}

export const errorMessages = {
  debugOption: 'on an internal error, print its stack trace',
  debugHint: 'this is a bug in airspace-hooks; run the command again with --debug to see where it happened',
} as const;

// --- git: the git layer: error lines and reasons of "unknown" comparisons ---

/**
 * User-facing sentences of the git layer: error lines and the reasons attached to "unknown"
 * comparisons. The report prints them as they are; keep each to one line.
 */
export const gitMessages = {
  gitMissing: 'git is not installed or not on PATH',
  outputTooLarge: (command: string, maxBytes: number) => `git ${command} printed more than ${maxBytes} bytes`,
  cancelled: (command: string) => `git ${command} was cancelled (the run reached its budget)`,
  stopped: (command: string, signal: string) => `git ${command} was stopped (${signal})`,
  failed: (command: string, detail: string) => `git ${command} failed: ${detail}`,
  noObjectId: (command: string) => `git ${command} printed no object id`,
  pushTimedOut: 'git push did not finish in time',
  noGitDirs: 'git rev-parse did not report the git directories',
  intentNeedsWorktree: 'intent needs a worktree (not a bare repository)',
  notARepository: (cwd: string) => `not a git repository: ${cwd}`,
  bareRepository: (dir: string) => `${dir} is a bare repository; airspace-hooks needs a worktree`,
  notInWorktree: (cwd: string) => `${cwd} is inside the git directory, not in a worktree`,
  snapshotFailed: (detail: string) => `could not snapshot uncommitted work: ${detail}`,
  noMergeBase: (a: string, b: string) => `${a} and ${b} have no common history (no merge-base)`,
  mergeBaseFailed: (a: string, b: string, detail: string) => `merge-base of ${a} and ${b} failed: ${detail}`,
  mergeTreeFailed: (detail: string) => `git merge-tree could not compare the two lines of work: ${detail}`,
  mergeBatchUnexpected: (command: string) => `git ${command} answered the batched merge unexpectedly`,
  mergeBatchScratch: (detail: string) => `the batched merge could not prepare its scratch object directory: ${detail}`,
  shallowClone: 'the clone is shallow: merge-bases and commit counts may miss history cut off by the clone',
  diffUnparsed: 'git diff output did not match its file list; every file counted as a whole-file edit',
  revisionUnknown: (rev: string) => `revision ${rev} does not exist here (not fetched?)`,
  agentSpecInvalid: (spec: string) => `agent "${spec}" must look like NAME=REV (for example feature/x=origin/feature/x)`,
  worktreeMissing: (path: string) => `worktree ${path} is missing on disk (prunable); skipped`,
  worktreeBare: (path: string) => `worktree ${path} is the bare main repository; skipped`,
  worktreeFailed: (path: string, detail: string) => `worktree ${path} could not be read: ${detail}`,
  worktreeNoGitDir: 'its .git file does not name a git directory',
  worktreeUnborn: (path: string) => `worktree ${path} has no commits yet; nothing to compare against`,
  peerFailed: (id: string, detail: string) => `${id} could not be compared: ${detail}`,
  ownshipUnborn: 'this worktree has no commits yet; only its uncommitted files are compared',
  fetchFailed: (remote: string, detail: string) => `git fetch ${remote} failed: ${detail}`,
  fetchTimedOut: (remote: string, ms: number) => `git fetch ${remote} took longer than ${ms} ms and was stopped`,
  noRemote: (remote: string) => `no remote named ${remote}; only local worktrees and branches are traffic`,
  trunkMissing: (trunk: string) => `trunk ${trunk} does not exist here`,
} as const;

// --- git-objects: the object reader (src/git/object-session.ts) ---

/** Sentences of the object reader (src/git/object-session.ts): errors of one `cat-file --batch-command`. */
export const gitObjectMessages = {
  endedEarly: 'git cat-file --batch-command ended before it answered every request',
  unasked: 'git cat-file --batch-command printed an answer nobody asked for',
  timedOut: (ms: number) => `git cat-file --batch-command did not answer within ${ms} ms`,
} as const;

// --- git-argument: refused git arguments (src/git/git-argument.ts) ---

/**
 * Wording of refused git arguments (src/git/git-argument.ts). The value is hostile by assumption:
 * shown JSON-quoted (control characters escaped) and cut short.
 */
const what = {
  remote: 'a remote name (like origin)',
  trunk: 'a branch or ref name (like main or origin/main)',
  revision: 'a revision (a branch, tag or commit; not an option, one line)',
  agent: 'an agent name (printable, one line, not starting with "-")',
} as const;

function shown(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}

export const argumentMessages = {
  refused: (kind: keyof typeof what, value: string, source?: string) =>
    `refused ${shown(value)}${source ? ` from ${source}` : ''}: must be ${what[kind]} (a value git could read as an option is never passed to git)`,
  /** For the config schema's issue text (`"remote" must be …`). */
  expected: (kind: keyof typeof what) => what[kind],
} as const;
