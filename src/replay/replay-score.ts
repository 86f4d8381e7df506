/**
 * Scores replayed cases the way the accuracy benchmark scores the dataset: the engine through the
 * CLI's own adapter (`toAgent` + `advise`, `now` = the moment), plus the baselines that need no
 * source, then ROC-AUC and TA/RA precision/recall against the final conflict label.
 */
import type { ModelOverrides } from '../config/defaults.js';
import { runMessages } from '../messages/hooks-and-check.js';
import { advise, type ExternalChannelValue, type ImportGraph, type ScanOptions } from '../engine/index.js';
import { toAgent } from '../traffic/to-agent.js';
import { baselineScores, pairFacts } from './baselines.js';
import { confusion, rocAuc, type Confusion } from './metrics.js';
import type { ReplayCase } from './replay-collect.js';

export const REPLAY_PREDICTORS = ['engine', 'engineNoMerge', 'sharedCount', 'touching'] as const;
export type ReplayPredictor = (typeof REPLAY_PREDICTORS)[number];

export interface ScoredCase {
  readonly merge: string;
  readonly subject: string;
  readonly fraction: number;
  readonly label: boolean;
  /** Epoch ms of the moment. */
  readonly now: number;
  readonly filesA: number;
  readonly filesB: number;
  readonly level: 'clear' | 'TA' | 'RA';
  readonly levelNoMerge: 'clear' | 'TA' | 'RA';
  /** The prefixes' own merge-tree at the moment: 1 conflict, 0 clean, null unknown. */
  readonly mergeChannel: 0 | 1 | null;
  readonly scores: Readonly<Record<ReplayPredictor, number>>;
}

export interface FlagFigures {
  readonly flagged: number;
  readonly truePositives: number;
  /** Null when undefined (nothing flagged / no positive): never NaN in output. */
  readonly precision: number | null;
  readonly recall: number | null;
}

export interface MomentSummary {
  readonly fraction: number;
  readonly cases: number;
  readonly conflicts: number;
  /** Null when one class is missing at this moment (ROC-AUC undefined). */
  readonly auc: Readonly<Record<ReplayPredictor, number | null>>;
  readonly engine: { readonly ta: FlagFigures; readonly ra: FlagFigures };
  readonly engineNoMerge: { readonly ta: FlagFigures; readonly ra: FlagFigures };
}

export interface ScoreOptions {
  readonly graph: ImportGraph;
  /** The user's engine overrides (config `model`); DEFAULTS supply the rest. */
  readonly model: ModelOverrides;
  /** Channels from the config; `merge` is the external git merge-tree channel. */
  readonly channels: readonly string[];
}

export function scoreCase(item: ReplayCase, options: ScoreOptions): ScoredCase {
  const engineChannels = options.channels.filter((c) => c !== 'merge');
  const scan: ScanOptions = { ...options.model, channels: engineChannels, now: item.now };
  const a = toAgent('side-a', item.sideA, item.factsA);
  const b = toAgent('side-b', item.sideB, item.factsB);
  const external: ExternalChannelValue[] = options.channels.includes('merge')
    ? [
        {
          a: a.id,
          b: b.id,
          channel: 'merge',
          value: item.mergeChannel.value,
          ...(item.mergeChannel.reason ? { reason: item.mergeChannel.reason } : {}),
          // Replay scores what the product would do: a real conflict of the two states is evidence.
          ...(item.mergeChannel.value === 1 ? { evidence: runMessages.mergeConflictEvidence(item.mergeChannel.conflictedPaths) } : {}),
        },
      ]
    : [];
  const full = advise(a, b, options.graph, { ...scan, external });
  const bare = advise(a, b, options.graph, scan);
  const baselines = baselineScores(pairFacts(item.sideA, item.sideB));
  return {
    merge: item.merge,
    subject: item.subject,
    fraction: item.fraction,
    label: item.label,
    now: item.now,
    filesA: item.sideA.files.length,
    filesB: item.sideB.files.length,
    level: full.level,
    levelNoMerge: bare.level,
    mergeChannel: item.mergeChannel.value,
    scores: { engine: full.risk, engineNoMerge: bare.risk, sharedCount: baselines.sharedCount, touching: baselines.touching },
  };
}

const finite = (value: number): number | null => (Number.isFinite(value) ? value : null);

function figures(c: Confusion): FlagFigures {
  return { flagged: c.flagged, truePositives: c.truePositives, precision: finite(c.precision), recall: finite(c.recall) };
}

function flags(levels: readonly ScoredCase['level'][], labels: readonly boolean[]): { ta: FlagFigures; ra: FlagFigures } {
  return {
    ta: figures(
      confusion(
        levels.map((l) => l !== 'clear'),
        labels,
      ),
    ),
    ra: figures(
      confusion(
        levels.map((l) => l === 'RA'),
        labels,
      ),
    ),
  };
}

/** The figures of one moment; TA counts every advisory (TA or RA), as a warning the user sees. */
export function summarizeMoment(scored: readonly ScoredCase[], fraction: number): MomentSummary {
  const at = scored.filter((s) => s.fraction === fraction);
  const labels = at.map((s) => s.label);
  const auc = Object.fromEntries(
    REPLAY_PREDICTORS.map((p) => [
      p,
      finite(
        rocAuc(
          at.map((s) => s.scores[p]),
          labels,
        ),
      ),
    ]),
  ) as Record<ReplayPredictor, number | null>;
  return {
    fraction,
    cases: at.length,
    conflicts: labels.filter(Boolean).length,
    auc,
    engine: flags(
      at.map((s) => s.level),
      labels,
    ),
    engineNoMerge: flags(
      at.map((s) => s.levelNoMerge),
      labels,
    ),
  };
}
