/**
 * Streams the dataset once and keeps, per scenario and moment, what every later pass needs: the
 * two agents (through the CLI's adapter), the scenario's import graph (shared by its moments),
 * the baselines' scores and the dependency labels. Engine runs then iterate over this in memory.
 */
import type { Agent, ImportGraph } from '../engine/types.js';
import { baselineScores, pairFacts, type BaselineName } from './baselines.js';
import { dependencyLabels, type DependencyLabels } from './dependency-label.js';
import { readScenarios, type DatasetPaths, type LoadOptions } from './load-scenarios.js';
import { agentsOf, ALL_MOMENTS, graphOf, pairAt } from './scenario-moments.js';
import type { MomentId } from './scenario-types.js';

export interface EvalCase {
  readonly repo: string;
  readonly merge: string;
  readonly mergeKind: string;
  readonly moment: MomentId;
  readonly label: boolean;
  readonly bothActive: boolean;
  readonly now: number;
  readonly agents: readonly [Agent, Agent];
  readonly graph: ImportGraph;
  readonly baselines: Readonly<Record<BaselineName, number>>;
  readonly dependency: DependencyLabels;
}

export interface CollectOptions extends LoadOptions {
  readonly moments?: readonly MomentId[];
}

export async function collectCases(paths: DatasetPaths, options: CollectOptions = {}): Promise<EvalCase[]> {
  const moments = options.moments ?? ALL_MOMENTS;
  const cases: EvalCase[] = [];
  for await (const joined of readScenarios(paths, options)) {
    const graph = graphOf(joined);
    for (const moment of moments) {
      const pair = pairAt(joined, moment);
      if (!pair) continue;
      cases.push({
        repo: pair.repo,
        merge: pair.merge,
        mergeKind: pair.mergeKind,
        moment,
        label: pair.label,
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
