/**
 * The import-graph layer: the repository's import graph for the engine's dependency channel,
 * read by dependency-cruiser and cached under the common git dir. Decisions and limits:
 * docs/decisions/import-graph.md.
 */
export { buildImportGraph } from './build-import-graph.js';
export { loadImportGraph } from './load-import-graph.js';
export { graphHealth } from './graph-health.js';
export { cruiserUsage } from './run-cruise.js';
export { graphCachePath } from './graph-cache.js';
export { requestGraphBuild } from './request-graph-build.js';
export { readGraphBuildStatus } from './graph-build-status.js';
