import { openSync, readSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import type { ImportGraph } from '../engine/types.js';
import { graphMessages, type GraphWarning } from '../messages/channels.js';

/**
 * Loud failure instead of a silent zero: an import graph with no edges scores every dependency
 * risk as 0, which reads as "clear". When that happens in a repository whose files plainly import
 * each other, the cruise is broken (no TypeScript, a tsconfig it could not use), and we say so.
 */

/** Files sampled when the graph is empty: enough to be sure, few enough to stay instant. */
const SAMPLE = 200;
/** Files with a relative import it takes to call an empty graph broken. */
const EVIDENCE = 3;
const HEAD_BYTES = 16 * 1024;
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]\.{1,2}\//;

export function countEdges(graph: ImportGraph): number {
  let edges = 0;
  for (const targets of Object.values(graph.adjacency)) edges += targets.length;
  return edges;
}

function hasEdge(graph: ImportGraph): boolean {
  for (const path in graph.adjacency) if ((graph.adjacency[path]?.length ?? 0) > 0) return true;
  return false;
}

/** `graph-empty` when no edge came out but sampled files import each other by relative path. */
export function emptyGraphWarning(toplevel: string, sources: readonly string[], graph: ImportGraph): GraphWarning | undefined {
  if (sources.length < EVIDENCE || hasEdge(graph)) return undefined;
  let withImports = 0;
  const step = Math.max(1, Math.floor(sources.length / SAMPLE));
  for (let index = 0; index < sources.length; index += step) {
    if (RELATIVE_IMPORT.test(readHead(join(toplevel, sources[index]!)))) withImports += 1;
  }
  if (withImports < EVIDENCE) return undefined;
  const estimate = step === 1 ? withImports : Math.round(withImports * step);
  return { code: 'graph-empty', message: graphMessages.graphEmpty(Math.min(estimate, sources.length), sources.length) };
}

/**
 * `typescript-missing` when TypeScript sources exist, dependency-cruiser has no compiler for them,
 * and oxc did not read them either (its native binding is missing on this platform).
 */
export function typescriptWarning(sources: readonly string[], typescriptAvailable: boolean | undefined, readWithOxc = false): GraphWarning | undefined {
  if (typescriptAvailable !== false || readWithOxc) return undefined;
  const tsFiles = sources.filter((path) => /\.[cm]?tsx?$/.test(path)).length;
  return tsFiles > 0 ? { code: 'typescript-missing', message: graphMessages.typescriptMissing(tsFiles) } : undefined;
}

function readHead(file: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buffer = Buffer.alloc(HEAD_BYTES);
    const read = readSync(fd, buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, read).toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
