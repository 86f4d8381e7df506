import { loadImportGraph } from '../graph/load-import-graph.js';
import type { GraphRefresh, LoadedGraph } from '../graph/types.js';
import { graphMessages } from '../messages/graph.js';
import type { Airspace } from '../traffic/collect-airspace.js';
import { targetOf } from '../traffic/line-of-work.js';

/** The import graph a run scores with: none when the dependency channel is off. */
export interface GraphForRunOptions {
  readonly channels: readonly string[];
  readonly refresh: GraphRefresh;
  readonly budgetMs: number;
  readonly now: number;
  readonly progress: (text: string) => void;
}

const NO_GRAPH: LoadedGraph = { graph: { adjacency: {} }, builtAt: undefined, stale: false, changedSinceBuild: 0, source: 'none', filesCruised: 0, warnings: [] };

export async function graphForRun(airspace: Airspace, options: GraphForRunOptions): Promise<LoadedGraph> {
  if (!options.channels.includes('dependency')) return NO_GRAPH;
  return loadImportGraph(airspace.toplevel, airspace.commonDir, {
    refresh: options.refresh,
    // The ownship's snapshot tree lists every file with its blob id: one `ls-tree` instead of a status walk.
    ...(airspace.ownship ? { worktreeTree: targetOf(airspace.ownship) } : {}),
    budgetMs: options.budgetMs,
    now: () => options.now,
    onProgress: (event) =>
      options.progress(event.phase === 'cruise' ? graphMessages.progress.cruise(event.done ?? 0, event.total ?? 0) : graphMessages.progress[event.phase]),
  });
}
