import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { loadOxcParser, oxcLang } from '../source/load-oxc-parser.js';
import { openImportResolver, type ImportResolver } from '../source/resolve-import-specifier.js';
import { isRelativeSpecifier, resolveRelativeImport } from '../source/resolve-relative-import.js';
import { readWorkspaceLayout } from '../source/workspace-layout.js';
import { openDirectoryEntries, type DirectoryEntries } from './directory-entries.js';
import { isTypescriptCompatible, readImportSpecifiers, type ModuleRecord, type ParseModule } from './read-import-specifiers.js';
import type { CruisedFile } from './run-cruise.js';
import { isInNodeModules, isSourcePath, pathDir } from './source-files.js';

/**
 * The fast path of a cruise (docs/decisions/import-graph.md, "Faster full builds"): a file whose
 * every import is relative and certain (or a plain core module) gets its record here (oxc-parser's module record, the
 * import resolved from directory listings) with exactly the edges dependency-cruiser would give.
 * Given the repository's layout files (package.json, pnpm-workspace.yaml, tsconfig*.json), package
 * and alias imports go through the same one resolver as the symbol channel
 * (src/source/resolve-import-specifier.ts): a workspace package's name to its source, a tsconfig
 * alias (root or per-package) to its target, anything else is outside the repository and no edge.
 * Every other file (CommonJS, a doubt of any kind) is left for dependency-cruiser. Most of a
 * build's time was dependency-cruiser's per-import resolution.
 */

export interface DirectReader {
  /** Records for the files this reader is sure about; `rest` goes to dependency-cruiser. */
  read(files: readonly string[]): { readonly records: Map<string, CruisedFile>; readonly rest: string[] };
}

/** undefined when oxc-parser's native binding cannot load here: then everything goes to dependency-cruiser. */
export async function openDirectReader(toplevel: string, layoutFiles?: readonly string[]): Promise<DirectReader | undefined> {
  const oxc = await loadOxcParser();
  if (typeof oxc === 'string') return undefined;
  const parse: ParseModule = (file, text) => {
    const result = oxc.parseSync(file, text, { lang: oxcLang(file), sourceType: 'module' });
    return result.errors.length > 0 ? undefined : (result.module as ModuleRecord);
  };
  const entries = openDirectoryEntries(toplevel);
  const resolver = layoutFiles
    ? openImportResolver(
        readWorkspaceLayout(layoutFiles, (path) => readText(toplevel, path)),
        entries,
      )
    : undefined;
  return {
    read(files) {
      const records = new Map<string, CruisedFile>();
      const rest: string[] = [];
      for (const file of files) {
        const record = readOne(toplevel, entries, resolver, parse, file);
        if (record) records.set(file, record);
        else rest.push(file);
      }
      return { records, rest };
    },
  };
}

function readText(toplevel: string, path: string): string | undefined {
  try {
    return readFileSync(join(toplevel, path), 'utf8');
  } catch {
    return undefined;
  }
}

function readOne(toplevel: string, entries: DirectoryEntries, resolver: ImportResolver | undefined, parse: ParseModule, file: string): CruisedFile | undefined {
  if (!isTypescriptCompatible(file)) return undefined;
  let text: string;
  try {
    text = readFileSync(join(toplevel, file), 'utf8');
  } catch {
    return undefined;
  }
  // Nothing to import with: dependency-cruiser finds no dependency in such a file whether or not
  // it parses, and it is this case (a file oxc rejects, mid-edit or not code at all) that would
  // otherwise load dependency-cruiser and TypeScript (~1.7 s) for a record with no edges.
  if (!MAY_IMPORT.test(text)) return { imports: [], unresolved: [] };
  const specifiers = readImportSpecifiers(file, text, parse);
  if (!specifiers) return undefined;
  const dir = pathDir(file);
  const imports = new Set<string>();
  const unresolved = new Set<string>();
  for (const specifier of specifiers) {
    if (isCoreModule(specifier)) continue;
    let resolved: string | undefined;
    if (isRelativeSpecifier(specifier) || !resolver) resolved = resolveRelativeImport(entries, dir, specifier);
    else {
      const resolution = resolver.resolve(file, specifier);
      if (resolution.kind === 'external') continue;
      if (resolution.kind === 'unresolved') {
        unresolved.add(specifier);
        continue;
      }
      if (resolution.kind === 'file') resolved = resolution.path;
    }
    if (resolved === undefined) return undefined;
    // As run-cruise.ts keeps them: repository sources other than the file itself.
    if (resolved !== file && isSourcePath(resolved) && !isInNodeModules(resolved)) imports.add(resolved);
  }
  return { imports: [...imports].sort(), unresolved: [...unresolved].sort() };
}

/**
 * Every form of dependency dependency-cruiser 17.4.3 takes from a TypeScript-compatible file
 * (extract/tsc/extract-typescript-deps.mjs, with the options run-cruise.ts gives it) is spelled
 * with one of these words: `import` (declarations, `import()`, type-level and JSDoc imports),
 * `from` (`export … from`), `require` (calls, `import x = require()`), `reference` (triple-slash)
 * and `getBuiltinModule`; `\u` because an escaped identifier (`requ\u0069re`) is the same name
 * to the TypeScript parser. Plain substrings, not words: a doubt goes down the usual path.
 */
const MAY_IMPORT = /import|from|require|reference|getBuiltinModule|\\u/;

/**
 * Core modules: dependency-cruiser marks them and run-cruise.ts leaves them out. It asks
 * `isBuiltin` of the name with `node:`/`bun:` taken off (extract/helpers.mjs
 * `extractModuleAttributes`, extract/resolve/is-built-in.mjs), except for a few prefix-only ones;
 * `node:test` or `bun:sqlite` are left to it rather than modelled.
 */
function isCoreModule(specifier: string): boolean {
  const bare = specifier.startsWith('node:') ? specifier.slice('node:'.length) : specifier;
  return isBuiltin(specifier) && isBuiltin(bare);
}
