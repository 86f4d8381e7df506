import type { Link, Vec3 } from '../engine/types.js';
import type { HookProtection } from '../install/hook-coverage.js';
import type { SymbolCollision } from '../symbols/symbol-types.js';
import type { UnknownPeer } from '../traffic/collect-airspace.js';

/**
 * What `check` and `scan` found, as data: the one structure both the terminal renderer and the
 * `--json` output are made from. `--json` prints it as is; its shape is versioned by `schema`
 * (documented in docs/json-output.md) and only grows within a version. @2: `links` of a `scan`
 * lists only pairs with contact; `pairs` counts the rest (docs/decisions/hook-performance.md, "Scale").
 */
export const REPORT_SCHEMA = 'airspace-hooks/report@2';

/**
 * A link as reported: the engine's link, plus what the symbol channel saw (which symbol, how it
 * changed, where it is declared and where the other side's new code uses it).
 */
export type ReportLink = Link & { readonly symbols?: readonly SymbolCollision[] };

export interface AgentFactsReport {
  readonly id: string;
  readonly kind: 'ownship' | 'worktree' | 'branch' | 'revision' | 'beacon';
  readonly branch: string | null;
  readonly tip: string | null;
  readonly worktreePath?: string;
  /** Files in its working set against the trunk, split by where the change lives. */
  readonly committedFiles: number;
  readonly uncommittedFiles: number;
  /**
   * Commits on the line since the trunk, unpushed ones included (a beacon-only agent has none
   * here). `committedFiles` counts files against a pair's merge-base and is 0 without a pair, so
   * the text header states this instead.
   */
  readonly commits?: number;
  readonly committedWork: number;
  readonly startedAt: number | null;
  readonly subjects: readonly string[];
  readonly intent: readonly string[];
  readonly note?: string;
  readonly beaconAgeMs?: number;
  /** True when its beacon was not refreshed within `beacons.refreshHours`: its advisories warn, they never block on their own. */
  readonly beaconStale?: boolean;
  /** Known only by a beacon that counts pushed commits for a branch the remote no longer has: never a block on its own. */
  readonly branchGone?: boolean;
  /** The publishing machine of its beacon (display only). */
  readonly machine?: string;
  /**
   * Its beacon announces a push the remote's branch does not carry yet, published at most
   * `PUSH_IN_FLIGHT_MS` ago (src/run/report-facts.ts): that push may land without having seen us.
   */
  readonly pushing?: true;
  /**
   * A worktree on this machine (the ownship included): whether git runs airspace-hooks on its next
   * push, and if not why (src/install/hook-coverage.ts). Absent for peers on other machines: we
   * cannot know whether they run it.
   */
  readonly protection?: HookProtection;
}

export interface ScannedReport {
  readonly at: number;
  readonly ownship: string | null;
  readonly includesUncommitted: boolean;
  readonly peers: { readonly worktrees: number; readonly branches: number; readonly beacons: number; readonly explicit: number };
  readonly fetch: {
    readonly attempted: boolean;
    readonly ok: boolean | null;
    readonly reason?: string;
    readonly lastFetchAt: number | null;
    readonly ageMs: number | null;
    /** A remote is configured: with no fetch at all, the report says the traffic was never fetched. */
    readonly remote: boolean;
    /** Age of the user's own last `git fetch`/`git pull` (FETCH_HEAD's mtime), null when none is known. */
    readonly userFetchAgeMs: number | null;
  };
  readonly graph: {
    readonly source: string;
    readonly files: number;
    readonly stale: boolean;
    readonly builtAt: number | null;
    readonly changedSinceBuild: number;
    readonly warnings: readonly string[];
  };
  readonly channels: readonly string[];
  /** The channel weights ω in effect (defaults with the config's overrides). */
  readonly weights: Readonly<Record<string, number>>;
  readonly skipped: readonly string[];
  readonly durationMs: number;
  /**
   * How a peer on another machine gets to see this agent's work: `this-push` (a pre-push run: the
   * push itself shows it), `beacon` (this clone's beacon of the ownship is on the remote), absent
   * when neither (only a push or `beacon publish` would show it).
   */
  readonly ownWorkShared?: 'this-push' | 'beacon';
  /** What the run did, stage by stage, and what it did not (cut by the budget, skipped, failed). */
  readonly stages?: readonly { readonly stage: string; readonly state: string; readonly detail?: string; readonly ms: number }[];
}

/** How many pairs were compared and how many of them `links` lists. */
export interface PairCounts {
  readonly compared: number;
  readonly listed: number;
  /** Compared pairs not listed: no contact, so clear by construction. */
  readonly clearWithoutContact: number;
  /** The largest risk a pair without contact can have under the model in effect; null when none was left out. */
  readonly maxRiskWithoutContact: number | null;
}

export interface Verdict {
  readonly mode: 'warn' | 'block' | 'off';
  /** Peers this agent must steer away from (RA, lower priority). */
  readonly steerFrom: readonly string[];
  /** Of those, peers known only by a stale beacon or one whose branch is gone: shown, never a block on their own. */
  readonly staleFrom?: readonly string[];
  /** Peers that must steer away from this agent (RA, this agent holds). */
  readonly holdAgainst: readonly string[];
  /**
   * Of `holdAgainst`, the local worktrees that run no airspace hook: nobody advises them, so the
   * right of way is worth nothing until they are protected or someone coordinates by hand.
   */
  readonly unadvised?: readonly string[];
  /** True when the hook/command exits 1. */
  readonly block: boolean;
}

export interface InboxNote {
  readonly from: string;
  readonly level: 'TA' | 'RA';
  readonly risk: number;
  readonly text: string;
}

export interface AirspaceReport {
  readonly schema: typeof REPORT_SCHEMA;
  readonly command: 'check' | 'scan';
  readonly hook: 'pre-commit' | 'pre-push' | null;
  readonly agents: readonly AgentFactsReport[];
  /**
   * The engine's links and advisories, exactly as the engine defines them. `check` and the hooks
   * list every compared pair; `scan` lists the pairs with contact (a shared path, import-graph
   * contact, a merge or symbol value) and counts the others in `pairs.clearWithoutContact`.
   */
  readonly links: readonly ReportLink[];
  readonly advisories: readonly ReportLink[];
  readonly pairs: PairCounts;
  readonly unknown: readonly UnknownPeer[];
  readonly positions: Readonly<Record<string, Vec3>>;
  readonly scanned: ScannedReport;
  readonly verdict: Verdict | null;
  readonly inbox: readonly InboxNote[];
}
