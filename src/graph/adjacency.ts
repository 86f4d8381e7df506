import { createHash } from 'node:crypto';
import type { ImportGraph } from '../engine/types.js';
import type { FileRecord } from './graph-cache.js';

/**
 * The engine's graph from per-file records: only files that exist now, and only edges to files
 * that exist now (a record may predate a deletion its importer has not been re-read for yet).
 */
export function toImportGraph(records: ReadonlyMap<string, Pick<FileRecord, 'imports'>>, present: { has(path: string): boolean }): ImportGraph {
  const adjacency: Record<string, readonly string[]> = {};
  for (const [path, record] of records) {
    if (!present.has(path)) continue;
    adjacency[path] = record.imports.every((target) => present.has(target)) ? record.imports : record.imports.filter((target) => present.has(target));
  }
  return { adjacency };
}

/**
 * Fingerprint of what import resolution depends on beyond the files themselves: which root
 * tsconfig we use and the content of every tsconfig*.json / jsconfig.json (an `extends` chain can
 * reach any of them).
 */
export function resolutionConfigKey(tsconfig: string | undefined, configs: ReadonlyMap<string, string>): string {
  const entries = [...configs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([path, blob]) => `${path}:${blob}`);
  return createHash('sha1')
    .update([`root=${tsconfig ?? ''}`, ...entries].join('\n'))
    .digest('hex');
}
