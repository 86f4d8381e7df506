import { graphMessages, type GraphWarning } from '../messages/graph.js';
import { countEdges } from './graph-warnings.js';
import { absoluteCommonDir, graphCachePath } from './graph-cache.js';
import { findRootTsconfig } from './find-root-tsconfig.js';
import { loadImportGraph } from './load-import-graph.js';
import { openCruiseSession } from './run-cruise.js';

/**
 * What `doctor` says about the import graph: is there a TypeScript dependency-cruiser can use,
 * which tsconfig drives resolution, and how the cache looks. Loads dependency-cruiser (doctor is
 * not a hook) but cruises nothing.
 */

export interface GraphHealth {
  readonly ok: boolean;
  readonly typescript: { readonly available: boolean; readonly version: string | undefined };
  /** Repo-relative root tsconfig used for `paths`, or undefined. */
  readonly tsconfig: string | undefined;
  readonly cache: {
    readonly path: string;
    readonly builtAt: number | undefined;
    readonly files: number;
    readonly edges: number;
    readonly changedSinceBuild: number;
  };
  readonly warnings: readonly GraphWarning[];
}

export async function graphHealth(toplevel: string, commonDir: string): Promise<GraphHealth> {
  const tsconfig = findRootTsconfig(toplevel);
  const [loaded, session] = await Promise.all([
    loadImportGraph(toplevel, commonDir, { refresh: 'never' }),
    openCruiseSession(toplevel, tsconfig),
  ]);
  const warnings = [...loaded.warnings];
  const tsFiles = Object.keys(loaded.graph.adjacency).filter((path) => /\.[cm]?tsx?$/.test(path)).length;
  if (!session.typescriptAvailable && !warnings.some((warning) => warning.code === 'typescript-missing')) {
    warnings.push({ code: 'typescript-missing', message: graphMessages.typescriptMissing(tsFiles) });
  }
  if (session.tsconfigError && tsconfig) {
    warnings.push({ code: 'tsconfig-unreadable', message: graphMessages.tsconfigUnreadable(tsconfig, session.tsconfigError) });
  }
  return {
    ok: !warnings.some((warning) => warning.code !== 'cache-missing'),
    typescript: { available: session.typescriptAvailable, version: session.typescriptVersion },
    tsconfig,
    cache: {
      path: graphCachePath(absoluteCommonDir(toplevel, commonDir)),
      builtAt: loaded.builtAt,
      files: Object.keys(loaded.graph.adjacency).length,
      edges: countEdges(loaded.graph),
      changedSinceBuild: loaded.changedSinceBuild,
    },
    warnings,
  };
}
