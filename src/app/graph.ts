import { runBackgroundGraphBuild } from '../graph/background-graph-build.js';
import { readGraphBuildStatus, type GraphBuildStatus } from '../graph/graph-build-status.js';
import type { LoadedGraph } from '../graph/types.js';
import { resolveRepo } from '../git/resolve-repo.js';
import { requestGraphBuild, type GraphBuildRequestResult } from '../graph/request-graph-build.js';

/**
 * `airspace-hooks graph build [--background] [--force]`: the import graph's full (or resumed) build
 * under the cross-worktree lock. `--background` is how hooks and `install` start it (detached,
 * niced, see src/graph/request-graph-build.ts); without it a user or a benchmark runs the same
 * build in the foreground at normal priority. `--force` reads every file again (refresh 'force'):
 * what a change the cache cannot see (a symlink, a file inside node_modules) needs.
 */
export type GraphBuildOutcome =
  | { readonly ran: true; readonly graph: LoadedGraph; readonly ms: number }
  | { readonly ran: false; readonly status: GraphBuildStatus };

export async function buildGraph(
  cwd: string,
  options: { readonly background: boolean; readonly force?: boolean; readonly afterPid?: number },
): Promise<GraphBuildOutcome> {
  const repo = await resolveRepo(cwd);
  const started = performance.now();
  const result = await runBackgroundGraphBuild({
    toplevel: repo.toplevel,
    commonDir: repo.commonDir,
    nice: options.background,
    force: options.force === true,
    ...(options.afterPid !== undefined ? { afterPid: options.afterPid } : {}),
  });
  if (!result.ran) return { ran: false, status: readGraphBuildStatus(repo.commonDir) };
  return { ran: true, graph: result.graph, ms: performance.now() - started };
}

/** After `install`: start the first build in the background (null outside a usable repository). */
export async function startGraphBuild(cwd: string): Promise<GraphBuildRequestResult | null> {
  try {
    const repo = await resolveRepo(cwd);
    return requestGraphBuild({ toplevel: repo.toplevel, commonDir: repo.commonDir });
  } catch {
    return null; // install already said what is wrong with the repository
  }
}
