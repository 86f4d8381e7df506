/**
 * Streams the dataset once and keeps, per scenario and moment, what every later pass needs: the
 * two agents (through the CLI's adapter), the scenario's import graph (shared by its moments),
 * the baselines' scores and the dependency labels. Engine runs then iterate over this in memory.
 */
import type { Agent, ImportGraph } from '../../src/engine/types.js';
import { baselineScores, pairFacts, type BaselineName } from '../../src/replay/baselines.js';
import { dependencyLabels, type DependencyLabels } from './dependency-label.js';
import { readScenarios, type DatasetPaths, type LoadOptions } from './load-scenarios.js';
import { evidenceAt, type MergeEvidence } from './merge-evidence.js';
import { agentsOf, ALL_MOMENTS, graphOf, pairAt, type PairCase } from './scenario-moments.js';
import type { MomentId } from './scenario-types.js';

export interface EvalCase {
  readonly repo: string;
  readonly merge: string;
  readonly mergeKind: string;
  readonly moment: MomentId;
  /** The final merge conflicted (any file). */
  readonly label: boolean;
  /**
   * The final merge conflicted in a file the default config does not ignore: the label the product
   * is judged by (a conflict only in CHANGELOG.md or a lockfile is one it is told not to watch).
   */
  readonly fairLabel: boolean;
  /**
   * The merge channel at this moment: conflicted non-ignored paths of `git merge-tree` between the
   * two sides' states ([] none), or null when not known (no evidence file, or git could not tell).
   */
  readonly evidence: readonly string[] | null;
  readonly bothActive: boolean;
  readonly now: number;
  readonly agents: readonly [Agent, Agent];
  readonly graph: ImportGraph;
  readonly baselines: Readonly<Record<BaselineName, number>>;
  readonly dependency: DependencyLabels;
}

export interface CollectOptions extends LoadOptions {
  readonly moments?: readonly MomentId[];
  /** The config's ignore globs: ignored files leave the working sets, the fair label and the evidence. */
  readonly ignore?: (path: string) => boolean;
  readonly evidence?: MergeEvidence | null;
}

/** The pair without ignored files, as the product's diff leaves them out (both paths of a rename). */
function withoutIgnored(pair: PairCase, ignore: (path: string) => boolean): PairCase {
  const keep = (set: PairCase['sideA']): PairCase['sideA'] => ({ ...set, files: set.files.filter((f) => !(ignore(f.file) && ignore(f.path ?? f.file))) });
  return { ...pair, sideA: keep(pair.sideA), sideB: keep(pair.sideB) };
}

export async function collectCases(paths: DatasetPaths, options: CollectOptions = {}): Promise<EvalCase[]> {
  const moments = options.moments ?? ALL_MOMENTS;
  const ignore = options.ignore ?? ((): boolean => false);
  const cases: EvalCase[] = [];
  for await (const joined of readScenarios(paths, options)) {
    const graph = graphOf(joined);
    for (const moment of moments) {
      const found = pairAt(joined, moment);
      if (!found) continue;
      const pair = options.ignore ? withoutIgnored(found, options.ignore) : found;
      const conflictFiles = joined.scenario.conflictFiles ?? [];
      cases.push({
        repo: pair.repo,
        merge: pair.merge,
        mergeKind: pair.mergeKind,
        moment,
        label: pair.label,
        // A conflicting scenario without a file list keeps its label (nothing says it was ignored).
        fairLabel: pair.label && (conflictFiles.length === 0 || conflictFiles.some((path) => !ignore(path))),
        evidence: evidenceAt(options.evidence ?? null, pair.merge, moment, ignore),
        bothActive: pair.bothActive,
        now: pair.now,
        agents: agentsOf(pair),
        graph,
        baselines: baselineScores(pairFacts(pair.sideA, pair.sideB)),
        dependency: dependencyLabels(pair.sideA, pair.sideB, graph, joined.scenario.resolutionExtraFiles),
      });
    }
  }
  return cases;
}

/** Short repository name (`Automattic/mongoose` → `mongoose`). */
export const repoName = (repo: string): string => repo.slice(repo.lastIndexOf('/') + 1);
