import { graphMessages, type GraphWarning } from '../../src/messages/channels.js';
import { toImportGraph } from '../../src/graph/adjacency.js';
import { cruiseInBatches } from '../../src/graph/cruise-in-batches.js';
import { findRootTsconfig } from '../../src/graph/find-root-tsconfig.js';
import { emptyGraphWarning, typescriptWarning } from '../../src/graph/graph-warnings.js';
import { listRepoFiles } from '../../src/graph/list-repo-files.js';
import { isSourcePath } from '../../src/graph/source-files.js';
import type { BuiltGraph, GraphProgressListener } from '../../src/graph/types.js';

/**
 * The reference the cached, incremental path (src/graph/load-import-graph.ts) is checked against,
 * built from the same parts (listRepoFiles, cruiseInBatches, toImportGraph). A full cruise without the cache: every source file of the worktree (tracked and untracked, not
 * ignored), or exactly `files`. Edges point at source files of the repository; node_modules,
 * core modules and imports that do not resolve are left out (the latter are in `unresolved`).
 */
export async function buildImportGraph(
  toplevel: string,
  files?: readonly string[],
  options: { readonly onProgress?: GraphProgressListener } = {},
): Promise<BuiltGraph> {
  options.onProgress?.({ phase: 'list' });
  const listed = files ? undefined : await listRepoFiles(toplevel);
  const sources = files ? files.filter(isSourcePath).sort() : [...listed!.sources.keys()].sort();
  const tsconfig = findRootTsconfig(toplevel);
  const batches = await cruiseInBatches(toplevel, sources, { tsconfig, onProgress: options.onProgress, now: Date.now });
  // With an explicit list, edges may point at any source file of the repository; without one,
  // only at the files that exist in the worktree now.
  const present = listed ? listed.sources : { has: (path: string) => isSourcePath(path) };
  const graph = toImportGraph(batches.cruised, present);
  const unresolved: Record<string, readonly string[]> = {};
  for (const [path, record] of batches.cruised) if (record.unresolved.length > 0) unresolved[path] = record.unresolved;

  const warnings: GraphWarning[] = [];
  if (batches.tsconfigError && tsconfig) {
    warnings.push({ code: 'tsconfig-unreadable', message: graphMessages.tsconfigUnreadable(tsconfig, batches.tsconfigError) });
  }
  for (const warning of [typescriptWarning(sources, batches.typescriptAvailable), emptyGraphWarning(toplevel, sources, graph)]) {
    if (warning) warnings.push(warning);
  }
  return { graph, unresolved, filesCruised: batches.cruised.size, warnings };
}
