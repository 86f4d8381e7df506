import type { FileRecord, GraphCache } from './graph-cache.js';
import { pathDir, pathStem } from './source-files.js';

/**
 * Which files an incremental refresh must cruise again. Pure: the cached records and the current
 * content ids in, a list of files out.
 *
 * A file's own edges change when its content changes. But an edge also depends on which OTHER
 * files exist, so we also re-cruise (the common cases; the limits are in
 * docs/decisions/import-graph.md):
 * - importers of a deleted file (the import now fails, or resolves elsewhere, e.g. `x.js` → `x.ts`);
 * - files with an unresolved import whose last segment names an added file (`./util` and a new
 *   `util.ts` or `util/index.ts`; `@app/b/x.js` and a new `packages/b/src/x.ts`);
 * - importers of a file an added file may shadow (`x.js` when `x.ts` appears next to it;
 *   `util/index.ts` when `util.ts` appears).
 */

export interface RefreshPlan {
  /** No usable cache, or a resolution config changed: every file is cruised. */
  readonly full: boolean;
  /** Source files to cruise, sorted. */
  readonly toCruise: readonly string[];
  /** Cached files that no longer exist. */
  readonly deleted: readonly string[];
  /** Source files added, modified or deleted since the cache (all of them after a config change). */
  readonly changed: number;
}

export function planRefresh(cache: GraphCache | undefined, sources: ReadonlyMap<string, string>, configKey: string): RefreshPlan {
  if (!cache || cache.configKey !== configKey) {
    return { full: true, toCruise: [...sources.keys()].sort(), deleted: cache ? deletedFiles(cache, sources) : [], changed: sources.size };
  }
  const added: string[] = [];
  const modified: string[] = [];
  for (const [path, blob] of sources) {
    const record = cache.files.get(path);
    if (!record) added.push(path);
    else if (record.blob !== blob || record.blob === '') modified.push(path);
  }
  const deleted = deletedFiles(cache, sources);
  const toCruise = new Set([...added, ...modified]);
  if (added.length > 0 || deleted.length > 0) {
    for (const path of dependentsToRetry(cache.files, added, deleted)) if (sources.has(path)) toCruise.add(path);
  }
  return { full: false, toCruise: [...toCruise].sort(), deleted, changed: added.length + modified.length + deleted.length };
}

/** Count only, for the warm path: no reverse index, no allocation per file. */
export function countChanged(cache: GraphCache, sources: ReadonlyMap<string, string>, configKey: string): number {
  if (cache.configKey !== configKey) return sources.size;
  let changed = 0;
  for (const [path, blob] of sources) {
    const record = cache.files.get(path);
    if (!record || record.blob !== blob || record.blob === '') changed += 1;
  }
  for (const path of cache.files.keys()) if (!sources.has(path)) changed += 1;
  return changed;
}

function deletedFiles(cache: GraphCache, sources: ReadonlyMap<string, string>): string[] {
  return [...cache.files.keys()].filter((path) => !sources.has(path));
}

function dependentsToRetry(files: ReadonlyMap<string, FileRecord>, added: readonly string[], deleted: readonly string[]): Set<string> {
  const importers = new Map<string, string[]>();
  for (const [path, record] of files) {
    for (const target of record.imports) {
      const list = importers.get(target);
      if (list) list.push(path);
      else importers.set(target, [path]);
    }
  }
  const retry = new Set<string>();
  const addImporters = (target: string): void => {
    for (const importer of importers.get(target) ?? []) retry.add(importer);
  };
  for (const path of deleted) addImporters(path);

  // Names an added file can be imported by: its stem, and for an index file its directory's name.
  const names = new Set<string>();
  const shadowKeys = new Set<string>();
  for (const path of added) {
    const dir = pathDir(path);
    const stem = pathStem(path);
    names.add(stem);
    if (stem === 'index' && dir !== '') names.add(pathStem(dir));
    shadowKeys.add(`${dir}\0${stem}`);
    shadowKeys.add(`${dir === '' ? stem : `${dir}/${stem}`}\0index`);
  }
  for (const [path, record] of files) {
    if (record.unresolved.some((specifier) => names.has(pathStem(specifier)))) retry.add(path);
  }
  for (const target of importers.keys()) {
    if (shadowKeys.has(`${pathDir(target)}\0${pathStem(target)}`)) addImporters(target);
  }
  return retry;
}
