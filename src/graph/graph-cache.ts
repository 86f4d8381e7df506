import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { writeFileAtomicSync } from '../fs/atomic-write.js';

/**
 * The graph cache: one JSON file under the repository's COMMON git dir, so every linked worktree
 * shares it. Each file's record is keyed by the blob id of the content it was cruised from, which
 * makes every record independently valid: a partial refresh (budget ran out) can be saved, and
 * the next run carries on where it stopped. The format version is in the file name; a new format
 * simply starts a new file.
 */

export const GRAPH_CACHE_VERSION = 1;

export interface FileRecord {
  /** Blob id of the content the imports were read from ('' = must be re-cruised). */
  readonly blob: string;
  /** Resolved imports: repo-relative source files. */
  readonly imports: readonly string[];
  /** Import specifiers that did not resolve (core modules excluded): retried when files appear. */
  readonly unresolved: readonly string[];
}

export interface GraphCache {
  /** Epoch ms of the last write. */
  readonly builtAt: number;
  /** Ids of the resolution config files (tsconfig*.json) the records were resolved with. */
  readonly configKey: string;
  /** Whether the last cruise had a usable TypeScript (so the warm path can still warn). */
  readonly typescriptAvailable: boolean | undefined;
  /**
   * With no TypeScript, every file was read with oxc (src/graph/read-imports-directly.ts, `complete`):
   * the records are complete all the same, so there is nothing to warn about or to read again.
   */
  readonly readWithOxc?: boolean;
  readonly files: ReadonlyMap<string, FileRecord>;
}

/**
 * On disk: every path once in `paths`; records and imports refer to it by index. Half the bytes
 * of plain strings, and parsing creates each path string once, which is what makes the warm
 * load of a 10,000-file cache quick.
 */
interface CacheFileV1 {
  readonly version: 1;
  readonly builtAt: number;
  readonly configKey: string;
  readonly typescript?: boolean;
  readonly oxc?: boolean;
  readonly paths: string[];
  /** [path index, blob id, import indices, unresolved specifiers?] per file. */
  readonly files: [path: number, blob: string, imports: number[], unresolved?: string[]][];
}

export function graphCachePath(commonDir: string): string {
  return join(commonDir, 'airspace', `graph-v${GRAPH_CACHE_VERSION}.json`);
}

/**
 * The last cache parsed, by file identity: a run reads the cache twice — for the beacon listing's
 * dependency areas (src/run/dependency-areas.ts), beside the fetch, then in its graph stage — and
 * a 10,000-file cache takes 30–170 ms to parse on a loaded 2-core machine. A rewrite is a new file
 * (temp file + rename: another inode), so a changed cache is never taken for the old one.
 */
let lastRead: { readonly key: string; readonly cache: GraphCache } | undefined;

/** `undefined` when there is no cache; throws when there is one we cannot use. */
export function readGraphCache(commonDir: string): GraphCache | undefined {
  const path = graphCachePath(commonDir);
  let key: string;
  let text: string;
  try {
    const stat = statSync(path);
    key = `${path}\0${stat.ino}\0${stat.size}\0${stat.mtimeMs}`;
    if (lastRead?.key === key) return lastRead.cache;
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const data = JSON.parse(text) as Partial<CacheFileV1>;
  const { paths } = data;
  if (data.version !== GRAPH_CACHE_VERSION || typeof data.builtAt !== 'number' || !Array.isArray(paths) || !Array.isArray(data.files)) {
    throw new Error('unexpected cache layout');
  }
  const files = new Map<string, FileRecord>();
  const pathAt = (index: number): string => {
    const path = paths[index];
    if (typeof path !== 'string') throw new Error(`bad path index ${index}`);
    return path;
  };
  for (const entry of data.files) {
    if (!Array.isArray(entry) || typeof entry[1] !== 'string' || !Array.isArray(entry[2])) throw new Error('bad record');
    files.set(pathAt(entry[0]), { blob: entry[1], imports: entry[2].map(pathAt), unresolved: entry[3] ?? [] });
  }
  const cache: GraphCache = {
    builtAt: data.builtAt,
    configKey: typeof data.configKey === 'string' ? data.configKey : '',
    typescriptAvailable: typeof data.typescript === 'boolean' ? data.typescript : undefined,
    ...(data.oxc === true ? { readWithOxc: true } : {}),
    files,
  };
  lastRead = { key, cache };
  return cache;
}

/** Atomic: a reader sees the old file or the new one, never half of one (temp file + rename). */
export function writeGraphCache(commonDir: string, cache: GraphCache): void {
  const target = graphCachePath(commonDir);
  const index = new Map<string, number>();
  const paths: string[] = [];
  const indexOf = (path: string): number => {
    let at = index.get(path);
    if (at === undefined) {
      at = paths.push(path) - 1;
      index.set(path, at);
    }
    return at;
  };
  const files: CacheFileV1['files'] = [];
  for (const path of [...cache.files.keys()].sort()) {
    const record = cache.files.get(path)!;
    const imports = record.imports.map(indexOf);
    files.push(record.unresolved.length > 0 ? [indexOf(path), record.blob, imports, [...record.unresolved]] : [indexOf(path), record.blob, imports]);
  }
  const body: CacheFileV1 = {
    version: GRAPH_CACHE_VERSION,
    builtAt: cache.builtAt,
    configKey: cache.configKey,
    ...(cache.typescriptAvailable === undefined ? {} : { typescript: cache.typescriptAvailable }),
    ...(cache.readWithOxc ? { oxc: true } : {}),
    paths,
    files,
  };
  writeFileAtomicSync(target, JSON.stringify(body));
}

/** `git rev-parse --git-common-dir` may print a path relative to the worktree. */
export function absoluteCommonDir(toplevel: string, commonDir: string): string {
  return isAbsolute(commonDir) ? commonDir : join(toplevel, commonDir);
}
