import { existsSync } from 'node:fs';
import { graphCachePath } from '../graph/graph-cache.js';
import { loadImportGraph } from '../graph/load-import-graph.js';
import { isGraphBuildRunning, requestGraphBuild } from '../graph/request-graph-build.js';
import type { GraphRefresh, LoadedGraph } from '../graph/types.js';
import { graphMessages } from '../messages/channels.js';
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

/**
 * The most source files a first run by hand cruises inline (no cache yet): about 2 s of
 * dependency-cruiser on a loaded 2-core machine (472 files took 4.1 s there). Beyond it the
 * background build does the work and the text channels are not held up.
 */
const SMALL_GRAPH_FILES = 200;

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
 * - 'auto' (a command run by hand): an incremental refresh within the budget when a cache exists;
 *   with no cache, a small repository (SMALL_GRAPH_FILES) is cruised now within the budget, a
 *   larger one — or any while the background build runs — is left to the background build and this
 *   run scores with what the cache has (text channels are never held up by a long cruise).
 *   With `AIRSPACE_GRAPH_BACKGROUND=off` 'auto' cruises inline, as before.
 * - 'force': a full cruise now.
 */
export async function graphForRun(airspace: Airspace, options: GraphForRunOptions): Promise<LoadedGraph> {
  if (!options.channels.includes('dependency')) return NO_GRAPH;
  const env = options.env ?? process.env;
  const background = env.AIRSPACE_GRAPH_BACKGROUND !== 'off';
  let refresh = options.refresh;
  const cold = !existsSync(graphCachePath(airspace.commonDir));
  if (refresh === 'auto' && background && isGraphBuildRunning(airspace.commonDir, options.now)) refresh = 'never';
  const loaded = await loadImportGraph(airspace.toplevel, airspace.commonDir, {
    refresh,
    // With no cache, a command run by hand builds a small graph now, within the graph budget,
    // rather than answering "not built yet" to the user who just asked; a large one is left to
    // the background build (the 'never' answer below starts it).
    ...(refresh === 'auto' && background && cold ? { coldCruiseMaxFiles: SMALL_GRAPH_FILES } : {}),
    // The ownship's snapshot tree lists every file with its blob id: one `ls-tree` instead of a status walk.
    ...(airspace.ownship ? { worktreeTree: targetOf(airspace.ownship) } : {}),
    budgetMs: options.budgetMs,
    now: () => options.now,
    onProgress: (event) =>
      options.progress(event.phase === 'cruise' ? graphMessages.progress.cruise(event.done ?? 0, event.total ?? 0) : graphMessages.progress[event.phase]),
  });
  const leftToBackground = loaded.source === 'none' && loaded.warnings.some((w) => w.code === 'cache-missing');
  if ((refresh !== 'never' && !leftToBackground) || !(loaded.source === 'none' || loaded.stale)) return loaded;
  const request = requestGraphBuild({ toplevel: airspace.toplevel, commonDir: airspace.commonDir, env, now: options.now });
  return { ...loaded, background: request.status };
}
