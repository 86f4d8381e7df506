import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import intersects from 'semver/ranges/intersects.js';
import { graphMessages, type GraphWarning } from '../messages/channels.js';
import { loadOxcParser } from '../source/load-oxc-parser.js';
import { countEdges, typescriptWarning } from './graph-warnings.js';
import { listRepoFiles } from './list-repo-files.js';
import { absoluteCommonDir, graphCachePath } from './graph-cache.js';
import { findRootTsconfig } from './find-root-tsconfig.js';
import { loadImportGraph } from './load-import-graph.js';
import { probeTypescript } from './probe-typescript.js';
import { openCruiseSession, type CruiseSession } from './run-cruise.js';

/**
 * What `doctor` says about the import graph, and the only place it is worked out (src/app/doctor.ts
 * words it): is there a TypeScript dependency-cruiser can use — and does the repository need one —,
 * which tsconfig drives resolution, and how the cache looks. Loads dependency-cruiser (doctor is
 * not a hook) but cruises nothing — unless there is no tsconfig to parse and the installed packages
 * already answer (probe-typescript.ts).
 */

export interface GraphHealth {
  readonly ok: boolean;
  readonly typescript: {
    readonly available: boolean;
    readonly version: string | undefined;
    /** oxc-parser loads here: the graph reads TypeScript files without a compiler (src/graph/read-imports-directly.ts). */
    readonly readWithOxc: boolean;
    /** The TypeScript the root package.json declares, and whether dependency-cruiser could use it (>= 2, < 7). */
    readonly declared?: { readonly range: string; readonly usable: boolean };
  };
  /** Source files in the repository (tracked and untracked), and how many of them are TypeScript. */
  readonly sources: { readonly files: number; readonly typescript: number };
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
  const [loaded, session, files, oxc] = await Promise.all([
    loadImportGraph(toplevel, commonDir, { refresh: 'never' }),
    typescriptFacts(toplevel, tsconfig),
    listRepoFiles(toplevel),
    loadOxcParser(),
  ]);
  const declared = declaredTypescript(toplevel);
  const sources = [...files.sources.keys()];
  // A pure JavaScript repository needs no TypeScript: no warning there (typescriptWarning counts).
  const warnings = loaded.warnings.filter((warning) => warning.code !== 'typescript-missing');
  const missing = typescriptWarning(sources, session.typescriptAvailable, typeof oxc !== 'string');
  if (missing) warnings.push(missing);
  const tsFiles = sources.filter((path) => /\.[cm]?tsx?$/.test(path)).length;
  if (session.tsconfigError && tsconfig) {
    warnings.push({ code: 'tsconfig-unreadable', message: graphMessages.tsconfigUnreadable(tsconfig, session.tsconfigError) });
  }
  return {
    ok: !warnings.some((warning) => warning.code !== 'cache-missing'),
    // dependency-cruiser reports '-' for a transpiler it did not find.
    typescript: {
      available: session.typescriptAvailable,
      version: session.typescriptVersion === '-' ? undefined : session.typescriptVersion,
      readWithOxc: typeof oxc !== 'string',
      ...(declared ? { declared } : {}),
    },
    sources: { files: sources.length, typescript: tsFiles },
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

/** Ranges of TypeScript that dependency-cruiser 17 can load (its src/meta.cjs says >=2.0.0 <7.0.0). */
const CRUISER_TYPESCRIPT = '>=2 <7';

function declaredTypescript(toplevel: string): { range: string; usable: boolean } | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(toplevel, 'package.json'), 'utf8')) as Record<string, Record<string, unknown> | undefined>;
    const range = manifest.devDependencies?.typescript ?? manifest.dependencies?.typescript;
    if (typeof range !== 'string') return undefined;
    let usable = false;
    try {
      usable = intersects(range, CRUISER_TYPESCRIPT);
    } catch {
      // Not a semver range (a tag, a URL): its own install is what the project knows how to run.
      usable = true;
    }
    return { range, usable };
  } catch {
    return undefined;
  }
}

type TypescriptFacts = Pick<CruiseSession, 'typescriptAvailable' | 'typescriptVersion' | 'tsconfigError'>;

async function typescriptFacts(toplevel: string, tsconfig: string | undefined): Promise<TypescriptFacts> {
  const probed = tsconfig === undefined ? probeTypescript() : undefined;
  // dependency-cruiser words the version `typescript@<version>` (extract/transpile/typescript-wrap.mjs).
  if (probed) return { typescriptAvailable: true, typescriptVersion: `typescript@${probed.version}`, tsconfigError: undefined };
  return openCruiseSession(toplevel, tsconfig);
}
