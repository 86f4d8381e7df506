import { dirname, join } from 'node:path';
import { RESOLVE_EXTENSIONS } from '../source/resolve-relative-import.js';
import { isInNodeModules, isSourcePath } from './source-files.js';

/**
 * The only module that touches dependency-cruiser, and only through a dynamic import: loading it
 * costs ~1.7 s, so the warm path (cache only) must never reach this code. `cruiserUsage()` counts
 * loads and cruises, so tests can prove the warm path stayed away.
 */

export interface CruisedFile {
  readonly imports: string[];
  readonly unresolved: string[];
}

export interface CruiseSession {
  /** Cruises exactly these repo-relative files (their outgoing imports only; nothing is followed). */
  cruise(files: readonly string[]): Promise<Map<string, CruisedFile>>;
  /** Whether dependency-cruiser found a TypeScript it can use (absent or TS ≥ 7: no). */
  readonly typescriptAvailable: boolean;
  readonly typescriptVersion: string | undefined;
  /** The tsconfig could not be parsed; its `paths` still apply (read by the resolver plugin). */
  readonly tsconfigError: string | undefined;
}

const usage = { loads: 0, cruises: 0, filesCruised: 0 };
/** The longest dependency-cruiser accepts (30 min): a session is one build. */
const RESOLVER_CACHE_MS = 1_800_000;

/** How often this process loaded dependency-cruiser and ran it. */
export function cruiserUsage(): Readonly<typeof usage> {
  return { ...usage };
}

export async function openCruiseSession(toplevel: string, tsconfig: string | undefined): Promise<CruiseSession> {
  const [dc, { default: extractTSConfig }] = await Promise.all([import('dependency-cruiser'), import('dependency-cruiser/config-utl/extract-ts-config')]);
  usage.loads += 1;
  const typescript = dc.getAvailableTranspilers().find((transpiler) => transpiler.name === 'typescript');
  let tsconfigFile = tsconfig ? join(toplevel, tsconfig) : undefined;
  let tsconfigError: string | undefined;
  // The parsed tsconfig is handed back to dependency-cruiser untouched except for `options.baseUrl`.
  let parsed: Partial<ReturnType<typeof extractTSConfig>> = {};
  if (tsconfigFile) {
    try {
      parsed = extractTSConfig(tsconfigFile);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // TS18003 "No inputs were found": the config is fine for resolving, it just includes nothing.
      if (!message.includes('TS18003'))
        tsconfigError =
          message
            .split('\n')
            .find((line) => line.trim() !== '')
            ?.trim() ?? message;
    }
    // dependency-cruiser hands the paths plugin baseUrl "./" (relative to process.cwd()) when the
    // config has none; with a baseUrl present the plugin reads the config itself, relative to it.
    parsed = { ...parsed, options: { ...(parsed.options ?? {}), baseUrl: parsed.options?.baseUrl ?? dirname(tsconfigFile) } };
    // A config the paths plugin cannot read would make every single resolution throw: resolve
    // without it (relative imports still work) and let the caller warn.
    if (tsconfigError) tsconfigFile = undefined;
  }

  // dependency-cruiser's `bustTheCache` rebuilds the resolver and purges its file-system cache on
  // EVERY resolution (extract/resolve/resolve.mjs `init`), which doubled the cost of a cruise
  // (docs/decisions/import-graph.md, "Faster full builds"). A session busts once, on a one-file
  // priming cruise (earlier sessions in this process may have seen other files), then keeps the
  // cache for all its batches: the files do not change under one build.
  let primed = false;
  const cruiseOnce = async (files: readonly string[]): Promise<Map<string, CruisedFile>> => {
    if (!primed) {
      await run(files.slice(0, 1), true);
      primed = true;
    }
    usage.cruises += 1;
    usage.filesCruised += files.length;
    return toRecords((await run(files, false)).output, new Set(files));
  };
  const run = (files: readonly string[], bust: boolean) =>
    dc.cruise(
      [...files],
      {
        baseDir: toplevel,
        // Follow nothing: every file we want is named explicitly, so a refresh of 5 files stays 5 files.
        doNotFollow: { path: '.' },
        // Keep type-only imports: they couple files as much as value imports do.
        tsPreCompilationDeps: true,
        ...(tsconfigFile ? { tsConfig: { fileName: tsconfigFile } } : {}),
        validate: false,
        // No rules, so no cycle/orphan/reachability analysis: its cost grows with the batch squared.
        skipAnalysisNotInRules: true,
        // The resolver's stat/readFile cache lives 4 s by default; a build's batches take longer.
        enhancedResolveOptions: { cachedInputFileSystem: { cacheDuration: RESOLVER_CACHE_MS } },
      },
      { bustTheCache: bust, extensions: [...RESOLVE_EXTENSIONS] } as never,
      tsconfigFile ? { tsConfig: parsed } : {},
    );

  return {
    cruise: (files) => cruiseSafely(cruiseOnce, files),
    typescriptAvailable: typescript?.available === true,
    typescriptVersion: (typescript as { currentVersion?: string } | undefined)?.currentVersion,
    tsconfigError,
  };
}

/**
 * One unreadable file makes dependency-cruiser throw for the whole batch ("... in <file>"). Such a
 * file gets no edges; the rest of the batch is cruised again without it.
 */
async function cruiseSafely(
  cruiseOnce: (files: readonly string[]) => Promise<Map<string, CruisedFile>>,
  files: readonly string[],
): Promise<Map<string, CruisedFile>> {
  if (files.length === 0) return new Map();
  try {
    return await cruiseOnce(files);
  } catch (error) {
    const empty = (): CruisedFile => ({ imports: [], unresolved: [] });
    if (files.length === 1) return new Map([[files[0]!, empty()]]);
    const culprit = /\.\.\. in (.+?)\s*$/.exec(error instanceof Error ? error.message : '')?.[1];
    if (culprit && files.includes(culprit)) {
      const rest = await cruiseSafely(
        cruiseOnce,
        files.filter((file) => file !== culprit),
      );
      return rest.set(culprit, empty());
    }
    const half = Math.ceil(files.length / 2);
    // Sequential: dependency-cruiser keeps module-level caches that a parallel run would share.
    const left = await cruiseSafely(cruiseOnce, files.slice(0, half));
    const right = await cruiseSafely(cruiseOnce, files.slice(half));
    return new Map([...left, ...right]);
  }
}

interface DcDependency {
  module: string;
  resolved: string;
  coreModule: boolean;
  couldNotResolve: boolean;
}

function toRecords(output: unknown, wanted: ReadonlySet<string>): Map<string, CruisedFile> {
  const imports = new Map<string, Set<string>>();
  const unresolved = new Map<string, Set<string>>();
  for (const file of wanted) {
    imports.set(file, new Set());
    unresolved.set(file, new Set());
  }
  // A file can appear twice: as a cruised root and, with no dependencies, as the target of an
  // import that was not followed. Take the union.
  const modules = (output as { modules?: { source: string; dependencies: DcDependency[] }[] }).modules ?? [];
  for (const module of modules) {
    const fileImports = imports.get(module.source);
    const fileUnresolved = unresolved.get(module.source);
    if (!fileImports || !fileUnresolved) continue;
    for (const dependency of module.dependencies) {
      if (dependency.coreModule) continue;
      if (dependency.couldNotResolve) fileUnresolved.add(dependency.module);
      else if (isRepoSource(dependency.resolved) && dependency.resolved !== module.source) fileImports.add(dependency.resolved);
    }
  }
  // A file dependency-cruiser skipped (unknown syntax, vanished) simply has no edges.
  const records = new Map<string, CruisedFile>();
  for (const file of wanted) {
    records.set(file, { imports: [...imports.get(file)!].sort(), unresolved: [...unresolved.get(file)!].sort() });
  }
  return records;
}

/** Resolved paths are relative to baseDir: drop node_modules, anything outside the repo, non-sources. */
function isRepoSource(resolved: string): boolean {
  return !resolved.startsWith('../') && !resolved.startsWith('/') && !isInNodeModules(resolved) && isSourcePath(resolved);
}
