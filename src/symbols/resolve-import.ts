import { posix } from 'node:path';
import type { ModuleFacts } from './symbol-types.js';

/**
 * Where an imported name is defined, as seen by the importing side: a relative specifier becomes
 * the first existing file among the candidates TypeScript and Node would try; a package specifier
 * (workspace packages, tsconfig paths) is matched against the import graph's resolved edges of the
 * importing file. A file that is not itself changed by the other side is followed as a barrel
 * through its re-exports (`export { x } from`, `export * from`, `export * as ns from`), a few hops
 * deep.
 */

const EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts'];
const MAX_HOPS = 3;

export interface ResolveContext {
  /** Files whose declarations the other side changed (its side and base paths). */
  readonly changedFiles: ReadonlySet<string>;
  /** The import graph's edges, file → files it imports (absent when no graph is available). */
  readonly adjacency?: Readonly<Record<string, readonly string[]>>;
  /** The first of `paths` that exists in the importing side's version, or null. */
  firstExisting(paths: readonly string[]): Promise<string | null>;
  /** A barrel's facts in the importing side's version (null when unreadable). */
  factsOf(path: string): Promise<ModuleFacts | null>;
}

export interface ResolvedName {
  readonly file: string;
  readonly name: string;
}

function isRelative(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..';
}

/** The files a relative specifier may name, in resolution order; [] when it leaves the repository. */
export function candidatePaths(importer: string, specifier: string): string[] {
  if (!isRelative(specifier)) return [];
  const joined = posix.normalize(posix.join(posix.dirname(importer), specifier)).replace(/\/$/, '');
  if (joined.startsWith('..') || joined === '.' || joined === '') return [];
  const list: string[] = [];
  // TypeScript's ESM style: `import './x.js'` names x.ts.
  const stem = /\.(?:[cm]?js|jsx)$/.exec(joined);
  if (stem) {
    const bare = joined.slice(0, -stem[0].length);
    list.push(...['.ts', '.tsx', '.mts', '.cts'].map((e) => bare + e));
  }
  list.push(joined, ...EXTENSIONS.map((e) => joined + e), ...EXTENSIONS.map((e) => `${joined}/index${e}`));
  return list;
}

/** Graph targets of `importer` that a package specifier plausibly names (`@org/server` → …/server/…). */
function graphCandidates(importer: string, specifier: string, adjacency: Readonly<Record<string, readonly string[]>> | undefined): string[] {
  if (!adjacency || isRelative(specifier)) return [];
  const segments = specifier.split('/').filter((s) => !s.startsWith('@') && s !== '');
  const head = segments[0];
  if (head === undefined) return [];
  return (adjacency[importer] ?? []).filter(
    (target) => target.startsWith(`${head}/`) || target.includes(`/${head}/`) || posix.basename(target).startsWith(`${head}.`),
  );
}

/**
 * `member` is set when the use is `name.member` (`util.clone(…)` after `import { util } from …`):
 * if a barrel on the way re-exports `name` as a whole module (`export * as util from './util'`,
 * or `import * as util …; export { util }`), the use is followed into that module as `member`.
 */
export async function resolveImport(
  importer: string,
  specifier: string,
  name: string,
  context: ResolveContext,
  member?: string,
  hops = 0,
): Promise<ResolvedName | null> {
  const relative = candidatePaths(importer, specifier);
  const targets =
    relative.length > 0
      ? [await context.firstExisting(relative)].filter((t): t is string => t !== null)
      : graphCandidates(importer, specifier, context.adjacency);
  for (const target of targets) {
    if (context.changedFiles.has(target)) return { file: target, name };
    if (hops >= MAX_HOPS) continue;
    const facts = await context.factsOf(target);
    if (!facts) continue;
    for (const reExport of facts.reExports) {
      if (reExport.name !== name && reExport.name !== '*') continue;
      let found: ResolvedName | null = null;
      if (reExport.name === '*') found = await resolveImport(target, reExport.source, name, context, member, hops + 1);
      else if (reExport.imported !== '*') found = await resolveImport(target, reExport.source, reExport.imported, context, member, hops + 1);
      // A namespace re-export: the module itself is `name`, so what is used is its `member`.
      else if (member !== undefined) found = await resolveImport(target, reExport.source, member, context, undefined, hops + 1);
      if (found) return found;
    }
  }
  return null;
}
