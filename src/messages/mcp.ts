/** Sentences of the MCP server (`airspace-hooks mcp`): tool descriptions and result summaries. */
export const mcpMessages = {
  serverInstructions:
    'airspace-hooks warns when parallel agents (worktrees, branches, other machines) are about to collide in the same code. ' +
    'Call `check` before editing files another agent may touch; `intent_add` the files you are about to edit so peers see you coming; ' +
    '`peer_diff` shows what a peer actually wrote near your changes. On a Resolution Advisory where you must steer, pick other files or coordinate.',
  tools: {
    check:
      'This worktree against all known traffic (other worktrees, peer branches, fetched beacons): advisories, who must steer, and the versioned JSON report.',
    scan: 'Every pair of agents in the airspace, or exactly the NAME=REV agents given: the risk of each pair and the advisories.',
    intent_add: 'Declare files you are about to edit (repo-relative or absolute paths): peers see you converging before you write a line.',
    intent_clear: 'Clear declared intent: the paths given, or all of it when none are given.',
    intent_list: 'The files this worktree has declared as intent.',
    inbox: 'Messages other agents sent this one on their advisories (set ack to mark them read).',
    peer_diff: "A peer's hunks near your own changes (same files, within `near` lines), with their commit subjects; read-only and size-capped.",
  },
  params: {
    cwd: 'Absolute path of the worktree to act in (default: the directory the server was started in).',
    fetch: 'Fetch the traffic (peer branches and beacons) from the remote first.',
    agents: 'Agents as NAME=REV instead of discovery.',
    paths: 'Repo-relative or absolute file paths.',
    ack: 'Mark the messages as read.',
    peer: 'The peer: its id as shown by check/scan, a branch name, or a worktree folder name.',
    file: "Only this file; when you have not touched it, all of the peer's hunks there are shown.",
    near: 'A peer hunk within this many lines of one of your changed ranges counts as near (default 20).',
    context: 'Context lines around each hunk (default 3).',
    maxHunks: 'At most this many hunks (default 20).',
    maxBytes: 'At most this many bytes of hunk lines (default 16384).',
  },
  cwdNotAbsolute: 'cwd must be an absolute path',
  /** An RA-level risk with no channel that saw the collision: warned, never blocking (docs/decisions/blocking-rule.md). */
  predictedRA: 'TA (predicted RA, no evidence yet)',
  checksOff: 'the checks are off in this repository\'s configuration (mode "off")',
  checkSummary: (advisories: number, steer: readonly string[], hold: readonly string[], unadvised: readonly string[] = []) =>
    advisories === 0
      ? 'clear: no traffic near this worktree'
      : `${advisories} advisor${advisories === 1 ? 'y' : 'ies'}` +
        (steer.length ? `; you must steer away from ${steer.join(', ')} (pick other files or coordinate first)` : '') +
        (hold.length > unadvised.length
          ? `; you hold course, ${hold.filter((p) => !unadvised.includes(p)).join(', ')} ${hold.length - unadvised.length === 1 ? 'is' : 'are'} advised to steer if running airspace-hooks`
          : '') +
        (unadvised.length
          ? `; ${unadvised.join(', ')} ${unadvised.length === 1 ? 'runs' : 'run'} no airspace hook: nobody tells ${unadvised.length === 1 ? 'it' : 'them'} to steer, coordinate by hand (airspace-hooks doctor says how to protect ${unadvised.length === 1 ? 'it' : 'them'})`
          : ''),
  advisoryLine: (level: string, a: string, b: string, risk: number, files: readonly string[]) =>
    `${level} ${a} ↔ ${b} risk ${risk.toFixed(2)}${files.length ? `: ${files.join(', ')}` : ''}`,
  scanSummary: (agents: number, pairs: number, advisories: number) =>
    `${agents} agents, ${pairs} pairs, ${advisories} advisor${advisories === 1 ? 'y' : 'ies'}`,
  intentSummary: (paths: readonly string[]) => (paths.length === 0 ? 'no declared intent' : `declared intent (${paths.length}): ${paths.join(', ')}`),
  inboxSummary: (count: number) => (count === 0 ? 'inbox empty' : `${count} message${count === 1 ? '' : 's'} from other agents`),
  peerDiffSummary: (peer: string, files: number, hunks: number, cut: number) =>
    `${peer}: ${hunks} hunk${hunks === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'} near your changes${cut ? ` (${cut} cut to stay small)` : ''}`,
};
