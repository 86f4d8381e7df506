import { posix } from 'node:path';
import type { Resolution } from '../source/resolve-import-specifier.js';
import { isRelativeSpecifier, resolutionProbes, resolveRelativeImport } from '../source/resolve-relative-import.js';
import type { ModuleFacts } from './symbol-types.js';

/**
 * Where an imported name is defined, as seen by the importing side: a relative specifier becomes
 * the file the import graph's resolver picks (src/source/resolve-relative-import.ts) in the
 * importing side's tree; a package or alias specifier (workspace packages by name, tsconfig
 * `paths`) goes through the same one resolver (src/source/resolve-import-specifier.ts) over the
 * importing side's tree, to the package's source file. A file that is not itself changed by the
 * other side is followed as a barrel through its re-exports (`export { x } from`,
 * `export * from`, `export * as ns from`), a few hops deep.
 */

const MAX_HOPS = 3;

export interface ResolveContext {
  /** Files whose declarations the other side changed (its side and base paths). */
  readonly changedFiles: ReadonlySet<string>;
  /** A package or alias specifier, resolved in the importing side's tree. */
  resolveNonRelative(importer: string, specifier: string): Promise<Resolution>;
  /** Told of an import that looks internal but names no file: the caller cannot say "not used". */
  onUnresolved(specifier: string, why: string): void;
  /** The files among `paths` that exist in the importing side's version. */
  existing(paths: readonly string[]): Promise<ReadonlySet<string>>;
  /** A barrel's facts in the importing side's version (null when unreadable). */
  factsOf(path: string): Promise<ModuleFacts | null>;
}

export interface ResolvedName {
  readonly file: string;
  readonly name: string;
}

/** The importer's repo-relative directory ('' at the root), as the resolver takes it. */
function dirOf(importer: string): string {
  const dir = posix.dirname(importer);
  return dir === '.' ? '' : dir;
}

/** Every path the resolver may ask about for this import ([] for a package specifier), to fetch at once. */
export function importProbes(importer: string, specifier: string): string[] {
  return resolutionProbes(dirOf(importer), specifier);
}

async function resolveRelative(importer: string, specifier: string, context: ResolveContext): Promise<string[]> {
  const existing = await context.existing(importProbes(importer, specifier));
  const file = resolveRelativeImport({ kind: (path) => (existing.has(path) ? 'file' : 'none') }, dirOf(importer), specifier);
  return file === undefined ? [] : [file];
}

async function resolveNonRelative(importer: string, specifier: string, context: ResolveContext): Promise<string[]> {
  const resolution = await context.resolveNonRelative(importer, specifier);
  if (resolution.kind === 'file') return [resolution.path];
  if (resolution.kind === 'unresolved') context.onUnresolved(specifier, resolution.why);
  return [];
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
  const targets = isRelativeSpecifier(specifier) ? await resolveRelative(importer, specifier, context) : await resolveNonRelative(importer, specifier, context);
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
