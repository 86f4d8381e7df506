/**
 * `airspace-hooks replay`: the whole pipeline (git layer, import graph, engine) on a repository's
 * own merges, as of their both-active moments, scored with the accuracy benchmark's metrics.
 * Returns data; the CLI renders it.
 */
import picomatch from 'picomatch';
import type { ModelOverrides } from '../config/defaults.js';
import { loadConfig } from '../config/load-config.js';
import { AirspaceError } from '../errors.js';
import { resolveRepo } from '../git/resolve-repo.js';
import { loadImportGraph } from '../graph/load-import-graph.js';
import { replayMessages } from '../messages/replay.js';
import { collectReplayCases, type ReplayProgress, type ReplaySkip } from './replay-collect.js';
import { REPLAY_FRACTIONS } from './replay-moments.js';
import { scoreCase, summarizeMoment, type MomentSummary, type ScoredCase } from './replay-score.js';

export interface ReplayOptions {
  /** How many recent two-parent merges to replay. */
  readonly merges: number;
  readonly fractions?: readonly number[];
  readonly onProgress?: (event: ReplayProgress) => void;
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

export async function replayHistory(cwd: string, options: ReplayOptions): Promise<ReplayResult> {
  const started = performance.now();
  if (!Number.isInteger(options.merges) || options.merges < 1) {
    throw new AirspaceError('usage', 'bad-merge-count', replayMessages.badMergeCount(options.merges));
  }
  const repo = await resolveRepo(cwd);
  if (repo.head === null) throw new AirspaceError('environment', 'no-merges', replayMessages.noMerges());
  const config = await loadConfig(repo.toplevel);
  const fractions = options.fractions ?? REPLAY_FRACTIONS;
  const ignore = picomatch([...config.ignore], { dot: true });
  const collected = await collectReplayCases(repo.toplevel, {
    merges: options.merges,
    fractions,
    ignore,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
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
