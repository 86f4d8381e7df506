import { PRODUCT_CHANNELS } from '../engine/channel-names.js';
import type { HookName } from '../config/defaults.js';
import type { AirspaceReport } from '../report/check-report.js';
import { resolveMoment } from '../run/open-repository.js';
import { runAirspace } from '../run/run-airspace.js';
import type { Sensing } from '../run/sensing.js';
import { startResidentIfWanted } from '../resident/start-resident.js';
import { checkWithResident } from './ask-resident.js';

/** How a command's run is watched and ended: Ctrl-C or an MCP request's cancellation ends it and kills its git processes. */
export interface RunControl {
  readonly signal?: AbortSignal;
  /** Progress lines (a terminal's spinner); absent for --json and agents. */
  readonly onProgress?: (text: string) => void;
}

export interface CheckOptions extends RunControl {
  /** Fetch the traffic first (default: as the hook judged with says, else no). */
  readonly fetch?: boolean;
  /** Judge with that hook's settings (mode, channels). */
  readonly as?: HookName | null;
  readonly json?: boolean;
  /**
   * Ask the repository's resident process first (docs/decisions/resident.md); when it cannot
   * answer, run here — and start one if none runs. The `check` command sets it; the resident
   * itself and library callers do not.
   */
  readonly askResident?: boolean;
  /** How the run reads git in stages 1–3: the resident's warm airspace (src/run/sensing.ts); default live. */
  readonly sensing?: Sensing;
}

/** What `check` found: the report (null when the hook it is judged as is off) and the run's own lines. */
export interface CheckOutcome {
  readonly report: AirspaceReport | null;
  /** Lines beside the report, as a hook prints them (a beacon not published, beacons withdrawn, a fetch failure under failClosed). */
  readonly notes: readonly string[];
  /** The run must fail for a reason other than an RA (failClosed with an unknown state), as the hook would. */
  readonly failedClosed: boolean;
  /** This worktree's line of work: its id, the commit holding its work (uncommitted included), whether it has any. */
  readonly ownWork?: { readonly agent: string; readonly commit: string | null; readonly alive: boolean } | null;
}

/** `check`: this worktree against all traffic; null when the hook it is judged as is off. */
export async function checkWorktree(cwd: string, options: CheckOptions = {}): Promise<AirspaceReport | null> {
  return (await checkWorktreeOutcome(cwd, options)).report;
}

/** `check`, with the lines and the fail-closed verdict a hook would print and obey. */
export async function checkWorktreeOutcome(cwd: string, options: CheckOptions = {}): Promise<CheckOutcome> {
  if (options.askResident !== true) return checkHere(cwd, options);
  const asked = await checkWithResident(cwd, options);
  // The resident ran checkHere itself (src/app/resident.ts): the same outcome, through JSON.
  if (asked.outcome) return asked.outcome as CheckOutcome;
  const outcome = await checkHere(cwd, options);
  if (asked.startResident) await startResidentIfWanted(cwd);
  return outcome;
}

async function checkHere(cwd: string, options: CheckOptions): Promise<CheckOutcome> {
  const outcome = await runAirspace(
    {
      kind: 'check',
      cwd,
      ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
      ...(options.as ? { as: options.as } : {}),
      json: options.json ?? false,
    },
    { ...control(options), ...(options.sensing ? { sensing: options.sensing } : {}) },
  );
  const judged = outcome.judgements[0];
  const agent = judged?.report.scanned.ownship ?? null;
  const ownWork = judged && agent !== null ? { agent, commit: judged.ownWork, alive: judged.ownBeacons.discarded !== agent } : null;
  return { report: judged?.report ?? null, notes: outcome.notes, failedClosed: outcome.failedClosed, ownWork };
}

export interface ScanOptions extends RunControl {
  /** `NAME=REV` agents to compare instead of discovering them. */
  readonly agents?: readonly string[];
  /** A past moment: an ISO 8601 time or any revision (its committer time). */
  readonly at?: string;
  readonly channels?: readonly string[];
  readonly fetch?: boolean;
  /** Radar positions (a layout pass): for --json and the radar. */
  readonly embed?: boolean;
}

/** `scan`: every pair of agents, or exactly the named ones; advisory only. */
export async function scanAgents(cwd: string, options: ScanOptions = {}): Promise<AirspaceReport> {
  const at = options.at ? await resolveMoment(cwd, options.at) : undefined;
  const outcome = await runAirspace(
    {
      kind: 'scan',
      cwd,
      fetch: options.fetch ?? false,
      agents: options.agents ?? [],
      ...(at !== undefined ? { at } : {}),
      ...(options.channels ? { channels: options.channels } : {}),
      embed: options.embed ?? false,
    },
    control(options),
  );
  return outcome.judgements[0]!.report;
}

/** The channels `scan --channels` accepts. */
export const SCAN_CHANNELS: readonly string[] = PRODUCT_CHANNELS;

function control(options: RunControl) {
  return { ...(options.signal ? { signal: options.signal } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}) };
}
