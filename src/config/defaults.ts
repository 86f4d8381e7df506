import { PRODUCT_CHANNELS } from '../engine/channel-names.js';
import type { EngineOptions } from '../engine/options.js';
import type { HookMode } from './schema.js';

export type HookName = 'pre-commit' | 'pre-push';

/**
 * The engine tunables a user may set (`model` in the config), in the engine's own units
 * (`halfLifeHours` in the file becomes `halfLifeMs`): spread it into ScanOptions, no cast needed.
 */
export type ModelOverrides = Partial<
  Pick<
    EngineOptions,
    'weights' | 'gamma' | 'tauTA' | 'tauRA' | 'halfLifeMs' | 'recencyFloor' | 'intentWeight' | 'adjacency' | 'proximityLines' | 'breadthFiles' | 'blockOn'
  >
>;

export interface HookSettings {
  readonly mode: HookMode;
  readonly budgetMs: number;
  /** On a failed fetch or internal error: block (true) or let through with "unknown" (false). */
  readonly failClosed: boolean;
  readonly publishBeacon: boolean;
  readonly fetch: boolean;
}

/** The fully resolved configuration every layer reads. */
export interface AirspaceConfig {
  readonly remote: string;
  readonly trunk: string | null;
  readonly peers: { readonly include: readonly string[]; readonly exclude: readonly string[]; readonly maxAgeDays: number };
  readonly ignore: readonly string[];
  readonly channels: readonly string[];
  /** Engine overrides (values the user set); the engine's DEFAULTS supply the rest. */
  readonly model: ModelOverrides;
  readonly hooks: Readonly<Record<HookName, HookSettings>>;
  /**
   * ttlMs: a beacon older than this is not read at all. refreshMs: every network-touching command of
   * its publisher refreshes it; one older than this is stale — its advisories warn with its age, and
   * it never blocks on its own (docs/decisions/agent-identity.md).
   */
  /** shareUntracked: publish untracked files' content with the beacon's work (default: names and ranges only). */
  /**
   * legacyRefs: the migration window to beacons addressed by area (docs/decisions/beacon-areas.md):
   * `read` publishes and reads the refs of earlier releases too, `publish` only publishes them (for
   * peers still on an earlier release), `off` neither.
   */
  readonly beacons: {
    readonly ttlMs: number;
    readonly refreshMs: number;
    readonly maxBytes: number;
    readonly shareUntracked: boolean;
    readonly legacyRefs: 'read' | 'publish' | 'off';
  };
  readonly graph: { readonly budgetMs: number };
  /** The symbol channel: a signature change used by the other side warns (TA) or blocks (RA). */
  readonly symbols: { readonly signatureChange: 'warn' | 'block' };
  /**
   * The resident process (docs/decisions/resident.md): started on demand by the hooks and `check`,
   * it exits after `idleMinutes` without a question; it fetches every `fetchIntervalMinutes` (0: never);
   * `watch` re-scores a worktree when its files change (off: answers only); after such a re-score a
   * live beacon of that worktree's agent is republished at most every `beaconRefreshMinutes` (0: never)
   * and withdrawn when its work is gone.
   */
  readonly resident: {
    readonly enabled: boolean;
    readonly idleMinutes: number;
    readonly fetchIntervalMinutes: number;
    readonly watch: boolean;
    readonly beaconRefreshMinutes: number;
  };
  /** Where the configuration came from (a file path, or null for defaults only). */
  readonly source: string | null;
}

/**
 * Files every agent touches, or that no human merges by hand: they would put every pair of agents
 * in permanent "traffic" and teach people to ignore the warnings.
 */
export const DEFAULT_IGNORE = [
  '**/package-lock.json',
  '**/npm-shrinkwrap.json',
  '**/yarn.lock',
  '**/pnpm-lock.yaml',
  '**/bun.lockb',
  '**/Cargo.lock',
  '**/poetry.lock',
  '**/go.sum',
  '**/CLAUDE.md',
  '**/AGENTS.md',
  '**/GEMINI.md',
  '**/.cursorrules',
  '**/CHANGELOG.md',
  '**/CHANGES.md',
  '**/HISTORY.md',
  '**/*.min.js',
  '**/*.map',
  '**/dist/**',
  '**/build/**',
  '**/coverage/**',
];

export const DEFAULT_CONFIG: Omit<AirspaceConfig, 'source'> = {
  remote: 'origin',
  trunk: null,
  peers: { include: ['**'], exclude: ['dependabot/**', 'renovate/**', 'HEAD'], maxAgeDays: 14 },
  ignore: DEFAULT_IGNORE,
  channels: [...PRODUCT_CHANNELS],
  model: {},
  hooks: {
    'pre-commit': { mode: 'warn', budgetMs: 2_000, failClosed: false, publishBeacon: false, fetch: false },
    'pre-push': { mode: 'block', budgetMs: 15_000, failClosed: false, publishBeacon: true, fetch: true },
  },
  beacons: { ttlMs: 24 * 3_600_000, refreshMs: 2 * 3_600_000, maxBytes: 256 * 1024, shareUntracked: false, legacyRefs: 'read' },
  graph: { budgetMs: 10_000 },
  symbols: { signatureChange: 'warn' },
  resident: { enabled: true, idleMinutes: 30, fetchIntervalMinutes: 0, watch: true, beaconRefreshMinutes: 5 },
};
