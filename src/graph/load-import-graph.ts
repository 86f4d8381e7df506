import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { graphMessages, type GraphWarning } from '../messages/channels.js';
import { resolutionConfigKey, toImportGraph } from './adjacency.js';
import { cruiseInBatches, type BatchResult } from './cruise-in-batches.js';
import type { CruisedFile } from './run-cruise.js';
import { absoluteCommonDir, graphCachePath, readGraphCache, writeGraphCache, type FileRecord, type GraphCache } from './graph-cache.js';
import { emptyGraphWarning, typescriptWarning } from './graph-warnings.js';
import { listRepoFiles } from './list-repo-files.js';
import { listTreeFiles } from './list-tree-files.js';
import { countChanged, planRefresh } from './plan-refresh.js';
import { findRootTsconfig } from './find-root-tsconfig.js';
import { probeTypescript } from './probe-typescript.js';
import { loadOxcParser } from '../source/load-oxc-parser.js';
import type { LoadedGraph, LoadGraphOptions } from './types.js';

/**
 * The import graph of a worktree, from the shared cache under the common git dir, refreshed as
 * far as `refresh` and the budget allow. `run-cruise.ts` (and so dependency-cruiser) is only
 * reached through `cruiseInBatches`, i.e. never with refresh 'never'.
 */
export async function loadImportGraph(toplevel: string, commonDir: string, options: LoadGraphOptions): Promise<LoadedGraph> {
  const now = options.now ?? Date.now;
  const started = now();
  const common = absoluteCommonDir(toplevel, commonDir);
  const warnings: GraphWarning[] = [];
  options.onProgress?.({ phase: 'list' });
  const [repo, cache] = await Promise.all([
    options.worktreeTree ? listTreeFiles(toplevel, options.worktreeTree) : listRepoFiles(toplevel, options.worktreeChanges),
    Promise.resolve().then(() => safeRead(common, warnings)),
  ]);
  const tsconfig = findRootTsconfig(toplevel);
  const configKey = resolutionConfigKey(tsconfig, repo.configs, (path) => readManifest(toplevel, path));
  const sources = [...repo.sources.keys()];

  const tooLargeToWaitFor = !cache && options.coldCruiseMaxFiles !== undefined && repo.sources.size > options.coldCruiseMaxFiles;
  if (options.refresh === 'never' || (options.refresh === 'auto' && tooLargeToWaitFor)) {
    if (!cache) {
      warnings.push({ code: 'cache-missing', message: graphMessages.cacheMissing() });
      return { graph: { adjacency: {} }, builtAt: undefined, stale: true, changedSinceBuild: repo.sources.size, source: 'none', filesCruised: 0, warnings };
    }
    const changed = countChanged(cache, repo.sources, configKey);
    const graph = toImportGraph(cache.files, repo.sources);
    pushDefined(warnings, typescriptWarning(sources, cache.typescriptAvailable, cache.readWithOxc), emptyGraphWarning(toplevel, sources, graph));
    return { graph, builtAt: cache.builtAt, stale: changed > 0, changedSinceBuild: changed, source: 'cache', filesCruised: 0, warnings };
  }

  // Records read while dependency-cruiser had no TypeScript miss the imports of every .ts file. Now
  // that oxc reads them without one (or a compiler has appeared), they are all read again once.
  const readBlind =
    cache?.typescriptAvailable === false && !cache.readWithOxc && (probeTypescript() !== undefined || typeof (await loadOxcParser()) !== 'string');
  const plan = options.refresh === 'force' || readBlind ? planRefresh(undefined, repo.sources, configKey) : planRefresh(cache, repo.sources, configKey);
  if (cache && plan.toCruise.length === 0 && plan.deleted.length === 0) {
    const graph = toImportGraph(cache.files, repo.sources);
    pushDefined(warnings, typescriptWarning(sources, cache.typescriptAvailable, cache.readWithOxc), emptyGraphWarning(toplevel, sources, graph));
    return { graph, builtAt: cache.builtAt, stale: false, changedSinceBuild: 0, source: 'cache', filesCruised: 0, warnings };
  }

  const deadline = options.budgetMs === undefined ? undefined : started + options.budgetMs;
  // Start from the old records: each is valid for its blob id, so what the budget did not reach
  // stays usable (and still counts as changed). After a config change none of them is valid,
  // and 'force' distrusts them all: what it did not reach is marked for re-reading.
  const invalidate = options.refresh === 'force' || readBlind || (cache !== undefined && cache.configKey !== configKey);
  const merged = (cruised: ReadonlyMap<string, CruisedFile>): Map<string, FileRecord> => {
    const files = new Map<string, FileRecord>();
    for (const [path, record] of cache?.files ?? []) {
      if (repo.sources.has(path)) files.set(path, invalidate ? { ...record, blob: '' } : record);
    }
    for (const [path, record] of cruised) files.set(path, { blob: repo.sources.get(path) ?? '', ...record });
    return files;
  };
  let saved = 0;
  const checkpoint = (cruised: ReadonlyMap<string, CruisedFile>): void => {
    if (options.checkpointEvery === undefined || cruised.size - saved < options.checkpointEvery) return;
    saved = cruised.size;
    try {
      writeGraphCache(common, {
        builtAt: now(),
        configKey,
        typescriptAvailable: cache?.typescriptAvailable,
        readWithOxc: cache?.readWithOxc,
        files: merged(cruised),
      });
    } catch {
      // The final save reports a write failure; a missed checkpoint only costs resumability.
    }
  };
  let batches: BatchResult;
  try {
    batches = await cruiseInBatches(toplevel, plan.toCruise, {
      tsconfig,
      deadline,
      onProgress: options.onProgress,
      now,
      onBatch: checkpoint,
      // A config change may have changed what dependency-cruiser finds: ask it again then.
      typescriptAvailable: invalidate ? undefined : cache?.typescriptAvailable,
      layoutFiles: [...repo.configs.keys()],
    });
  } catch (error) {
    // dependency-cruiser itself failed (not one file: those get no edges). Keep what we had.
    warnings.push({ code: 'cruise-failed', message: graphMessages.cruiseFailed(reason(error)) });
    const graph = toImportGraph(cache?.files ?? new Map(), repo.sources);
    const changed = cache ? countChanged(cache, repo.sources, configKey) : repo.sources.size;
    return { graph, builtAt: cache?.builtAt, stale: true, changedSinceBuild: changed, source: cache ? 'cache' : 'none', filesCruised: 0, warnings };
  }

  const files = merged(batches.cruised);
  const updated: GraphCache = {
    builtAt: now(),
    configKey,
    typescriptAvailable: batches.typescriptAvailable ?? cache?.typescriptAvailable,
    // A build that read without TypeScript says so; one that did not load anything keeps what was there.
    readWithOxc: batches.typescriptAvailable === undefined ? cache?.readWithOxc : batches.readWithoutTypescript === true,
    files,
  };
  options.onProgress?.({ phase: 'save' });
  try {
    writeGraphCache(common, updated);
  } catch (error) {
    warnings.push({ code: 'cache-write-failed', message: graphMessages.cacheWriteFailed(graphCachePath(common), reason(error)) });
  }

  const graph = toImportGraph(files, repo.sources);
  const changed = countChanged(updated, repo.sources, configKey);
  if (batches.remaining.length > 0) {
    warnings.push({ code: 'refresh-over-budget', message: graphMessages.refreshOverBudget(batches.remaining.length, options.budgetMs ?? 0) });
  }
  if (batches.tsconfigError && tsconfig) {
    warnings.push({ code: 'tsconfig-unreadable', message: graphMessages.tsconfigUnreadable(tsconfig, batches.tsconfigError) });
  }
  pushDefined(warnings, typescriptWarning(sources, updated.typescriptAvailable, updated.readWithOxc), emptyGraphWarning(toplevel, sources, graph));
  return {
    graph,
    builtAt: updated.builtAt,
    stale: changed > 0,
    changedSinceBuild: changed,
    source: files.size === 0 ? 'none' : plan.full ? 'full' : 'incremental',
    filesCruised: batches.cruised.size,
    warnings,
  };
}

function safeRead(commonDir: string, warnings: GraphWarning[]): GraphCache | undefined {
  try {
    return readGraphCache(commonDir);
  } catch (error) {
    warnings.push({ code: 'cache-unreadable', message: graphMessages.cacheUnreadable(graphCachePath(commonDir), reason(error)) });
    return undefined;
  }
}

function pushDefined(warnings: GraphWarning[], ...items: (GraphWarning | undefined)[]): void {
  for (const item of items) if (item) warnings.push(item);
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Larger than any real package.json; a bigger one is keyed by its blob id instead of being read. */
const MAX_MANIFEST_BYTES = 1024 * 1024;

/** A package.json of the worktree as it is on disk (the listing is of this worktree's files), or undefined. */
function readManifest(toplevel: string, path: string): string | undefined {
  try {
    const file = join(toplevel, path);
    const stat = statSync(file);
    return stat.isFile() && stat.size <= MAX_MANIFEST_BYTES ? readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}
