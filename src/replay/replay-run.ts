/**
 * `airspace-hooks replay`: the whole pipeline (git layer, import graph, engine) on a repository's
 * own merges, as of their both-active moments, scored with the accuracy benchmark's metrics.
 * Returns data; the CLI renders it.
 */
import { compileGlobs } from '../config/compile-globs.js';
import type { AirspaceConfig, ModelOverrides } from '../config/defaults.js';
import { AirspaceError } from '../errors.js';
import type { RepoInfo } from '../git/resolve-repo.js';
import { loadImportGraph } from '../graph/load-import-graph.js';
import { replayMessages } from '../messages/evaluation.js';
import { collectReplayCases, type ReplayProgress, type ReplaySkip } from './replay-collect.js';
import { REPLAY_FRACTIONS } from './replay-moments.js';
import { scoreCase, summarizeMoment, type MomentSummary, type ScoredCase } from './replay-score.js';

export interface ReplayOptions {
  /** How many recent two-parent merges to replay. */
  readonly merges: number;
  readonly fractions?: readonly number[];
  readonly onProgress?: (event: ReplayProgress) => void;
  /** The run's signal: when it aborts, the replay's git processes are killed and the replay ends (not skips). */
  readonly signal?: AbortSignal;
}

export interface ReplayResult {
  readonly toplevel: string;
  /** Two-parent merges found (at most `merges`). */
  readonly mergesFound: number;
  /** Merges with a base and a label; `conflicting` of them conflicted. */
  readonly labelled: number;
  readonly conflicting: number;
  /** The primary moment (both-active f = 0.5). */
  readonly primary: number;
  readonly moments: readonly MomentSummary[];
  readonly skipped: readonly ReplaySkip[];
  readonly graph: { readonly source: string; readonly files: number; readonly stale: boolean; readonly approximation: string };
  readonly engine: { readonly channels: readonly string[]; readonly model: ModelOverrides };
  readonly cases: readonly ScoredCase[];
  /** Set when the primary moment's merges are all of one class: why ROC-AUC is undefined. */
  readonly undefinedAuc?: string;
  readonly elapsedMs: number;
}

const PRIMARY = 0.5;

/** A usage error before any git runs (the CLI checks this before it opens the repository). */
export function checkReplayMerges(merges: number): void {
  if (!Number.isInteger(merges) || merges < 1) throw new AirspaceError('usage', 'bad-merge-count', replayMessages.badMergeCount(merges));
}

/** Replays the merges of a repository opened by the run layer (src/run/open-repository.ts), inside its run scope. */
export async function replayHistory(repo: RepoInfo, config: AirspaceConfig, options: ReplayOptions): Promise<ReplayResult> {
  const started = performance.now();
  checkReplayMerges(options.merges);
  if (repo.head === null) throw new AirspaceError('environment', 'no-merges', replayMessages.noMerges());
  const fractions = options.fractions ?? REPLAY_FRACTIONS;
  const ignore = compileGlobs(config.ignore);
  const collected = await collectReplayCases(repo.toplevel, {
    merges: options.merges,
    fractions,
    ignore,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (collected.merges.length === 0) throw new AirspaceError('environment', 'no-merges', replayMessages.noMerges());

  options.onProgress?.({ phase: 'graph' });
  const loaded = await loadImportGraph(repo.toplevel, repo.commonDir, { refresh: 'auto', budgetMs: config.graph.budgetMs });

  options.onProgress?.({ phase: 'score', total: collected.cases.length });
  const scoreOptions = { graph: loaded.graph, model: config.model, channels: config.channels };
  const cases = collected.cases.map((item) => scoreCase(item, scoreOptions));
  const moments = fractions.map((fraction) => summarizeMoment(cases, fraction));
  const primary = moments.find((m) => m.fraction === PRIMARY) ?? moments[0];
  if (!primary) throw new Error('replay: no moment to score (empty fractions)');
  // One class of merge (too little history, or a repository that never conflicts) still shows what
  // was measured; the ranking figures are undefined and the result says why (exit 0).
  const oneClass = primary.conflicts === 0 || primary.conflicts === primary.cases;
  const labels = [...collected.labels.values()];
  return {
    toplevel: repo.toplevel,
    mergesFound: collected.merges.length,
    labelled: labels.length,
    conflicting: labels.filter(Boolean).length,
    primary: primary.fraction,
    moments,
    skipped: collected.skipped,
    graph: {
      source: loaded.source,
      files: Object.keys(loaded.graph.adjacency).length,
      stale: loaded.stale,
      approximation: replayMessages.graphApproximation,
    },
    engine: { channels: config.channels, model: config.model },
    cases,
    ...(oneClass ? { undefinedAuc: replayMessages.oneClass(primary.cases, primary.conflicts, collected.merges.length) } : {}),
    elapsedMs: Math.round(performance.now() - started),
  };
}
