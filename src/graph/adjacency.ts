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
 * tsconfig we use, the content of every tsconfig*.json / jsconfig.json (an `extends` chain can
 * reach any of them) and pnpm-workspace.yaml, and of each package.json only what the resolver
 * reads (src/source/workspace-layout.ts). The cache is shared by every worktree of the repository,
 * and worktrees routinely differ in a package.json's version or a dependency's range: keyed by
 * the whole file, each run in another worktree would find the whole graph invalid and re-read it.
 * `readText` gives a package.json's content; without it (or when it cannot be read or parsed) the
 * file counts by its blob id, which is never wrong, only stricter.
 */
export function resolutionConfigKey(
  tsconfig: string | undefined,
  configs: ReadonlyMap<string, string>,
  readText?: (path: string) => string | undefined,
): string {
  const entries = [...configs.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, blob]) => `${path}:${(isManifest(path) && manifestKey(readText?.(path))) || blob}`);
  return createHash('sha1')
    .update([`root=${tsconfig ?? ''}`, ...entries].join('\n'))
    .digest('hex');
}

const isManifest = (path: string): boolean => path === 'package.json' || path.endsWith('/package.json');

/** The fields of a package.json that import resolution reads, with dependencies by name only. */
const RESOLUTION_FIELDS = ['name', 'exports', 'main', 'module', 'types', 'typings', 'source', 'workspaces'] as const;
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

function manifestKey(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) return undefined;
  const fields = manifest as Record<string, unknown>;
  const kept: unknown[] = RESOLUTION_FIELDS.map((field) => fields[field] ?? null);
  for (const field of DEPENDENCY_FIELDS) {
    const deps = fields[field];
    kept.push(typeof deps === 'object' && deps !== null ? Object.keys(deps).sort() : null);
  }
  return `manifest-${createHash('sha1').update(JSON.stringify(kept)).digest('hex')}`;
}
