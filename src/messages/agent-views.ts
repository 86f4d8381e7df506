/**
 * What agents and their humans look at: the MCP tools, diff PEER, watch, the radar page and the
 * demo. Pure data (no Node built-ins): the radar browser bundle imports this module. One section
 * per concern, each opened by a `// --- name: what ---` line; a section exports named message
 * objects (`as const`, or a record typed by its codes) and the few functions that word a typed
 * result. Symbols are imported by name.
 */

// --- mcp: the MCP server (airspace-hooks mcp) ---

/** Sentences of the MCP server (`airspace-hooks mcp`): tool descriptions and result summaries. */
export const mcpMessages = {
  requestTooLarge:
    'airspace-hooks mcp: a request larger than the 10 MB the MCP stdio transport accepts was refused, and the transport closed the stream; restart the server (send smaller arguments)',
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
  /** The resource a harness subscribes to (notifications/resources/updated when it changes). */
  advisoriesResource:
    "This worktree's advisories now (TA/RA pairs, who must steer, shared files). Subscribe: it is updated as the resident process re-scores any worktree; the same RAs reach the inbox.",
  advisoriesChanged: (agent: string, count: number) =>
    count === 0
      ? `${agent}: no advisories any more`
      : `${agent}: ${count} advisor${count === 1 ? 'y' : 'ies'} now (read the advisories resource, or call check)`,
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
} as const;

// --- peer-diff: diff PEER [FILE] and the MCP peer_diff tool ---

/** Sentences of `diff PEER [FILE]` and the MCP `peer_diff` tool. Peer-supplied text arrives sanitized. */
export const peerDiffMessages = {
  notFound: (peer: string, known: readonly string[]) =>
    `no peer "${peer}" in this airspace${known.length ? ` (known: ${known.join(', ')})` : ' (no worktree, active branch or beacon found)'}`,
  ambiguous: (peer: string, matches: readonly string[]) => `"${peer}" names several peers: ${matches.join(', ')}; use the full id`,
  noOwnship: 'this directory is no worktree with commits: there is no own work to compare with',
  noBase: (peer: string, reason: string) => `no common base with ${peer}: ${reason}`,
  beaconWorkMissing: (peer: string) => `the work behind ${peer}'s beacon is not here; run \`git fetch\` (the hooks fetch it on pre-push)`,
  badNumber: (name: string, value: number) => `--${name} must be a whole number from 0 to 100000 (got ${value})`,
  header: (peer: string, source: string, files: number, near: number) =>
    `${peer} (${source}): ${files === 0 ? 'no hunks' : `hunks in ${files} file${files === 1 ? '' : 's'}`} within ${near} lines of your changes`,
  fileLine: (path: string, own: string, uncommitted: boolean) => `--- ${path}   yours: ${own}${uncommitted ? '   (includes their uncommitted work)' : ''}`,
  ownWhole: 'whole file',
  ownNone: 'untouched (all their hunks shown)',
  subjects: (subjects: readonly string[]) => `    their commits: ${subjects.map((s) => `"${s}"`).join(', ')}`,
  binary: '    binary file changed',
  cut: (files: number, hunks: number, bytes: number) =>
    `(cut to stay small: ${[files ? `${files} file${files === 1 ? '' : 's'} too large` : '', hunks ? `${hunks} more hunk${hunks === 1 ? '' : 's'}` : '', bytes ? `${bytes} bytes of lines` : ''].filter(Boolean).join(', ')}; narrow with FILE or raise --max-hunks / --max-bytes)`,
} as const;

// --- watch: airspace-hooks watch ---

/** Sentences of `watch`. */
export const watchMessages = {
  footer: (worktrees: number, at: number) =>
    `watching ${worktrees} worktree${worktrees === 1 ? '' : 's'} and the git dir · updated ${new Date(at).toLocaleTimeString()} · Ctrl-C to stop`,
  scanFailed: (detail: string) => `airspace-hooks watch: scan failed: ${detail} (still watching)`,
  badDebounce: (value: number) => `--debounce must be a whole number of ms from 0 to 60000 (got ${value})`,
  /** Following the resident's re-scores (src/app/follow-airspace.ts). */
  connected: (pid: number, agent: string | null) =>
    `watching ${agent ?? 'this worktree'} through the resident process ${pid}: its re-scores of every worktree · Ctrl-C to stop`,
  lost: 'the resident process went away; reconnecting (a new one is started if needed)',
  ownWatcher: 'no resident process to follow (off, CI, or not answering): watching with a watcher of its own',
  clearNow: (at: number, agent: string) => `${new Date(at).toLocaleTimeString()}  ${agent}: no advisories`,
  change: (
    at: number,
    type: 'raised' | 'changed' | 'cleared',
    level: string,
    a: string,
    b: string,
    risk: number,
    steer: string | null,
    files: readonly string[],
  ) =>
    `${new Date(at).toLocaleTimeString()}  ${type === 'cleared' ? 'cleared' : level} ${a} ↔ ${b}  risk ${risk.toFixed(2)}${steer !== null ? `  ${steer} must steer` : ''}${files.length > 0 ? `  ${files.join(', ')}` : ''}`,
  cut: (count: number) => `  (+${count} weaker advisories not sent)`,
} as const;

// --- radar: the radar: report-layer errors and every label of the browser page ---

/**
 * Wording of the radar: the errors of the report layer and every label the browser page shows.
 * Pure data (no Node built-ins): the browser bundle imports this module too.
 */

export const radarErrors = {
  bundleMissing: (tried: readonly string[]): string => `The radar page script is missing (looked in ${tried.join(', ')}); run \`npm run build\` first.`,
  noFrames: (): string => 'The radar needs at least one scan to draw.',
  badPort: (port: number): string => `Port ${port} is not a valid TCP port (0–65535).`,
  badInterval: (ms: number): string => `The radar refresh interval must be at least 100 ms (got ${ms}).`,
  listenFailed: (host: string, port: number, reason: string): string => `The radar server could not listen on ${host}:${port}: ${reason}`,
} as const;

/** Labels of the browser page. Names and paths are never part of these: the page sets them as text. */
export const radarPageText = {
  heading: 'airspace radar',
  legendTitle: 'Legend',
  legendClear: 'clear',
  legendTA: 'Traffic Advisory',
  legendRA: 'Resolution Advisory',
  legendSymbol: 'symbol collision (dashed)',
  legendAgent: 'agent',
  legendOwnship: 'you (the agent of this worktree)',
  legendFile: 'file',
  you: 'you',
  moreFiles: (count: number) => `+${count} more`,
  countAgents: 'agents',
  countPairs: 'pairs',
  countFiles: 'files',
  prev: '◀ prev',
  next: 'next ▶',
  step: 'step',
  hint: 'Drag to rotate, scroll to zoom, right-drag to pan. Hover or click an agent or a link.',
  panelEmpty: 'Hover or click an agent or a link to see the details.',
  risk: 'risk',
  distance: 'distance',
  level: 'level',
  driver: 'driver',
  channels: 'channels',
  unknown: 'unknown',
  sharedFiles: 'overlapping files',
  symbols: "symbols (one side changed what the other side's new code uses)",
  noSharedFiles: 'no shared files (the risk comes from other channels)',
  overlap: 'overlap',
  gap: 'gap',
  lines: 'lines',
  wholeFile: 'whole file',
  hold: 'holds course',
  steer: 'must steer',
  closureRate: 'closure rate',
  escalated: 'escalated early: the pair is closing in',
  position: 'position',
  agentLinks: 'links',
  noLinks: 'no links',
  live: 'live',
  liveWaiting: 'live: waiting for the next scan…',
  liveFailed: 'live: the last scan failed — showing the previous one',
  liveLost: 'live: the server does not answer',
  updatedAt: 'scanned',
} as const;

// --- demo: the demo's story and timeline ---

/** Wording of the demo's story and timeline. */
export const demoMessages = {
  install: 'installs the hooks (airspace-hooks install)',
  push: (branch: string) => `git push origin ${branch}`,
  intent: (path: string) => `declares intent: ${path}`,
  check: 'airspace-hooks check',
  inbox: 'airspace-hooks inbox',
  steer: 'steers: moves its change out of the contested lines into a module of its own',
  merge: (branch: string) => `merge ${branch} into main`,
  notPushed: (branch: string) => `${branch} was never pushed: nothing to land`,
  clearIntent: 'airspace-hooks intent clear',
  adapt: "adapts: builds on dana's pushed work and passes the retry count (airspace-hooks check)",
  steps: {
    farApart: '1. Far apart: four agents in four corners of the code',
    converging: '2. Converging: cy declares it will touch src/auth/session.ts (intent exchanged)',
    imminent: '3. Collision imminent: cy edits the lines ada just pushed',
    steered: '4. cy steers away and pushes again',
    signature: "5. Caught before the build breaks: dana changes the signature of connect, bob's new code calls it",
    landed: '6. Everyone lands on main',
  },
  building: (root: string) => `building the demo airspace in ${root} …`,
  stepHeader: (title: string, ta: number, ra: number) => `\n${title}   [${ta} TA, ${ra} RA]`,
  outcome: (code: number | undefined) => (code === undefined ? '' : code === 0 ? 'ok' : `exit ${code}`),
  summary: (blocked: readonly string[], conflicts: number, landed: number, total: number) =>
    `\nresult: ${blocked.length === 0 ? 'no push blocked' : `push blocked for ${blocked.join(', ')} (Resolution Advisory), then steered`}; ` +
    `${landed}/${total} lines of work landed with ${conflicts} merge conflict${conflicts === 1 ? '' : 's'}`,
  radar: (file: string) => `radar of every step: ${file}  (open it in a browser; use the step slider)`,
} as const;
