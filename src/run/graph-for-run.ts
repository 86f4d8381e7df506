import { existsSync } from 'node:fs';
import { graphCachePath } from '../graph/graph-cache.js';
import { loadImportGraph } from '../graph/load-import-graph.js';
import { isGraphBuildRunning, requestGraphBuild } from '../graph/request-graph-build.js';
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
  /** Where `AIRSPACE_GRAPH_BACKGROUND` is read (default process.env). */
  readonly env?: NodeJS.ProcessEnv;
}

const NO_GRAPH: LoadedGraph = {
  graph: { adjacency: {} },
  builtAt: undefined,
  stale: false,
  changedSinceBuild: 0,
  source: 'none',
  filesCruised: 0,
  warnings: [],
};

/**
 * The graph is built off the critical path (docs/decisions/import-graph.md, "Background build"):
 * - 'never' (hooks): the cache as it is; a missing or stale graph starts the background build
 *   and the result carries its status (`background`) for the report.
 * - 'auto': an incremental refresh within the budget when a cache exists; with no cache at all,
 *   or while the background build runs, the background build does the work and this run scores
 *   with what the cache has (text channels are never held up by a full cruise).
 *   With `AIRSPACE_GRAPH_BACKGROUND=off` 'auto' cruises inline, as before.
 * - 'force': a full cruise now.
 */
export async function graphForRun(airspace: Airspace, options: GraphForRunOptions): Promise<LoadedGraph> {
  if (!options.channels.includes('dependency')) return NO_GRAPH;
  const env = options.env ?? process.env;
  const background = env.AIRSPACE_GRAPH_BACKGROUND !== 'off';
  let refresh = options.refresh;
  if (refresh === 'auto' && background && (isGraphBuildRunning(airspace.commonDir, options.now) || !existsSync(graphCachePath(airspace.commonDir))))
    refresh = 'never';
  const loaded = await loadImportGraph(airspace.toplevel, airspace.commonDir, {
    refresh,
    // The ownship's snapshot tree lists every file with its blob id: one `ls-tree` instead of a status walk.
    ...(airspace.ownship ? { worktreeTree: targetOf(airspace.ownship) } : {}),
    budgetMs: options.budgetMs,
    now: () => options.now,
    onProgress: (event) =>
      options.progress(event.phase === 'cruise' ? graphMessages.progress.cruise(event.done ?? 0, event.total ?? 0) : graphMessages.progress[event.phase]),
  });
  if (refresh !== 'never' || !(loaded.source === 'none' || loaded.stale)) return loaded;
  const request = requestGraphBuild({ toplevel: airspace.toplevel, commonDir: airspace.commonDir, env, now: options.now });
  return { ...loaded, background: request.status };
}
