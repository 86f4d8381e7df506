import type { AirspaceConfig } from '../config/defaults.js';
import { resolveOptions } from '../engine/resolve-options.js';
import { dependencyHops, filesWithinHops } from '../engine/dependency-ball.js';
import { buildGraphIndex } from '../engine/graph-index.js';
import { readGraphCache } from '../graph/graph-cache.js';

/**
 * The files a beacon-only peer can work in and still be coupled to this agent's work through the
 * dependency channel (and so the symbol channel, which resolves through the same graph): those
 * within the engine's reach on the import graph (docs/decisions/beacon-areas.md, "Dependency
 * areas"). Read from the graph cache as it is on disk, never built here: the listing runs inside
 * a hook's budget, beside the branch fetch, and a cruise takes seconds.
 * - `read`: the files in reach (the work's own files not included);
 * - `no-graph`: no cache yet, or one that cannot be read: the run says so in its stage log;
 * - `off`: the dependency channel is not computed (`channels`), nothing can couple through it.
 */
export type DependencyPaths = { readonly state: 'read'; readonly paths: readonly string[] } | { readonly state: 'no-graph' | 'off' };

export function dependencyPaths(commonDir: string, own: Iterable<string>, config: AirspaceConfig, channels: readonly string[]): DependencyPaths {
  if (!channels.includes('dependency')) return { state: 'off' };
  const hops = dependencyHops(resolveOptions(config.model));
  if (hops === 0) return { state: 'off' };
  let cache: ReturnType<typeof readGraphCache>;
  try {
    cache = readGraphCache(commonDir);
  } catch {
    // The graph stage reports an unreadable cache with its reason; here it only means "not read".
    return { state: 'no-graph' };
  }
  if (cache === undefined) return { state: 'no-graph' };
  const adjacency: Record<string, readonly string[]> = {};
  for (const [path, record] of cache.files) adjacency[path] = record.imports;
  return { state: 'read', paths: filesWithinHops(buildGraphIndex({ adjacency }), own, hops) };
}
