/**
 * `airspace-hooks calibrate`: the replay pipeline (git layer, import graph, engine) on this
 * repository's own merges at the primary moment, then `calibrateHistory` (fit on older merges,
 * score newer ones). Returns data; the CLI renders it and writes the config only with `--write`.
 */
import { compileGlobs } from '../config/compile-globs.js';
import type { AirspaceConfig } from '../config/defaults.js';
import { ENGINE_CHANNELS } from '../engine/channel-names.js';
import { DEFAULTS } from '../engine/defaults.js';
import { advise } from '../engine/index.js';
import { AirspaceError } from '../errors.js';
import type { RepoInfo } from '../git/resolve-repo.js';
import { loadImportGraph } from '../graph/load-import-graph.js';
import { calibrateMessages } from '../messages/evaluation.js';
import { toAgent } from '../traffic/to-agent.js';
import type { EngineSetting } from './calibrate.js';
import { calibrateHistory, type CalibrationCase, type HistoryCalibration, type ModelValues } from './calibrate-history.js';
import { collectReplayCases, type ReplaySkip } from './replay-collect.js';

/** Fewer conflicting merges than this and a fit would learn noise: defaults are kept. */
export const MIN_CONFLICTS = 15;
const PRIMARY = 0.5;

export interface CalibrateOptions {
  readonly merges: number;
  /** The run's signal: when it aborts, the git processes are killed and the calibration ends (not skips). */
  readonly signal?: AbortSignal;
}

export interface CalibrateResult {
  readonly toplevel: string;
  /** Where the config lives (null: no file yet; `--write` creates .airspacerc.json). */
  readonly configSource: string | null;
  readonly mergesFound: number;
  readonly scored: number;
  readonly conflicts: number;
  readonly skipped: readonly ReplaySkip[];
  /** null when there are fewer than MIN_CONFLICTS conflicting merges. */
  readonly calibration: HistoryCalibration | null;
  readonly current: ModelValues;
}

/** A usage error before any git runs (the CLI checks this before it opens the repository). */
export function checkCalibrateMerges(merges: number): void {
  if (!Number.isInteger(merges) || merges < 1) throw new AirspaceError('usage', 'bad-merge-count', calibrateMessages.badMergeCount(merges));
}

/** Calibrates on the merges of a repository opened by the run layer (src/run/open-repository.ts), inside its run scope. */
export async function calibrateRepository(repo: RepoInfo, config: AirspaceConfig, options: CalibrateOptions): Promise<CalibrateResult> {
  checkCalibrateMerges(options.merges);
  const model = config.model;
  const current: ModelValues = {
    weights: { ...DEFAULTS.weights, ...(model.weights ?? {}) },
    tauTA: model.tauTA ?? DEFAULTS.tauTA,
    tauRA: model.tauRA ?? DEFAULTS.tauRA,
  };
  const base = { toplevel: repo.toplevel, configSource: config.source, current };
  if (repo.head === null) return { ...base, mergesFound: 0, scored: 0, conflicts: 0, skipped: [], calibration: null };
  const collected = await collectReplayCases(repo.toplevel, {
    merges: options.merges,
    fractions: [PRIMARY],
    ignore: compileGlobs(config.ignore),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const loaded = await loadImportGraph(repo.toplevel, repo.commonDir, { refresh: 'auto', budgetMs: config.graph.budgetMs });
  const times = new Map(collected.merges.map((m) => [m.merge, m.time]));
  // Unweighted channels (every ω 1) with the settings in effect; weights are refitted, settings not.
  const unweighted = Object.fromEntries(ENGINE_CHANNELS.map((name) => [name, 1]));
  const cases: CalibrationCase[] = collected.cases.map((item) => {
    const link = advise(toAgent('side-a', item.sideA, item.factsA), toAgent('side-b', item.sideB, item.factsB), loaded.graph, {
      ...model,
      weights: unweighted,
      channels: [...ENGINE_CHANNELS],
      now: item.now,
    });
    return { merge: item.merge, time: times.get(item.merge) ?? 0, channels: link.channels, evidence: item.mergeChannel.value === 1, label: item.label };
  });
  const conflicts = cases.filter((c) => c.label).length;
  const resolved = { ...DEFAULTS, ...model };
  const setting: EngineSetting = {
    gamma: resolved.gamma,
    halfLifeMs: resolved.halfLifeMs,
    recencyFloor: resolved.recencyFloor,
    adjacency: resolved.adjacency,
    proximityLines: resolved.proximityLines,
    breadthFiles: resolved.breadthFiles,
  };
  return {
    ...base,
    mergesFound: collected.merges.length,
    scored: cases.length,
    conflicts,
    skipped: collected.skipped,
    calibration: conflicts < MIN_CONFLICTS || conflicts === cases.length ? null : calibrateHistory(cases, setting, current),
  };
}
