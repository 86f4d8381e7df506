/**
 * The import-graph layer: the repository's import graph for the engine's dependency channel,
 * read by dependency-cruiser and cached under the common git dir. Decisions and limits:
 * docs/decisions/import-graph.md.
 */
export { buildImportGraph } from './build-import-graph.js';
export { loadImportGraph } from './load-import-graph.js';
export { graphHealth, type GraphHealth } from './graph-health.js';
export { cruiserUsage } from './run-cruise.js';
export { graphCachePath, GRAPH_CACHE_VERSION } from './graph-cache.js';
export { readWorktreeChanges, type WorktreeChanges } from './list-repo-files.js';
export { countEdges } from './graph-warnings.js';
export type {
  BuiltGraph,
  GraphProgress,
  GraphProgressListener,
  GraphRefresh,
  GraphWarning,
  GraphWarningCode,
  LoadedGraph,
  LoadGraphOptions,
} from './types.js';
export { requestGraphBuild, isGraphBuildRunning, type GraphBuildRequest, type GraphBuildRequestResult } from './request-graph-build.js';
export { readGraphBuildStatus, type GraphBuildStatus } from './graph-build-status.js';
export { runBackgroundGraphBuild, type BackgroundBuildResult } from './background-graph-build.js';
