import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { loadOxcParser, oxcLang } from '../source/load-oxc-parser.js';
import { resolveRelativeImport } from '../source/resolve-relative-import.js';
import { openDirectoryEntries, type DirectoryEntries } from './directory-entries.js';
import { isTypescriptCompatible, readImportSpecifiers, type ModuleRecord, type ParseModule } from './read-import-specifiers.js';
import type { CruisedFile } from './run-cruise.js';
import { isInNodeModules, isSourcePath, pathDir } from './source-files.js';

/**
 * The fast path of a cruise (docs/decisions/import-graph.md, "Faster full builds"): a file whose
 * every import is relative and certain (or a plain core module) gets its record here (oxc-parser's module record, the
 * import resolved from directory listings) with exactly the edges dependency-cruiser would give;
 * every other file (a package or alias import, CommonJS, a doubt of any kind) is left for
 * dependency-cruiser. Most of a build's time was dependency-cruiser's per-import resolution.
 */

export interface DirectReader {
  /** Records for the files this reader is sure about; `rest` goes to dependency-cruiser. */
  read(files: readonly string[]): { readonly records: Map<string, CruisedFile>; readonly rest: string[] };
}

/** undefined when oxc-parser's native binding cannot load here: then everything goes to dependency-cruiser. */
export async function openDirectReader(toplevel: string): Promise<DirectReader | undefined> {
  const oxc = await loadOxcParser();
  if (typeof oxc === 'string') return undefined;
  const parse: ParseModule = (file, text) => {
    const result = oxc.parseSync(file, text, { lang: oxcLang(file), sourceType: 'module' });
    return result.errors.length > 0 ? undefined : (result.module as ModuleRecord);
  };
  const entries = openDirectoryEntries(toplevel);
  return {
    read(files) {
      const records = new Map<string, CruisedFile>();
      const rest: string[] = [];
      for (const file of files) {
        const record = readOne(toplevel, entries, parse, file);
        if (record) records.set(file, record);
        else rest.push(file);
      }
      return { records, rest };
    },
  };
}

function readOne(toplevel: string, entries: DirectoryEntries, parse: ParseModule, file: string): CruisedFile | undefined {
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
  for (const specifier of specifiers) {
    if (isCoreModule(specifier)) continue;
    const resolved = resolveRelativeImport(entries, dir, specifier);
    if (resolved === undefined) return undefined;
    // As run-cruise.ts keeps them: repository sources other than the file itself.
    if (resolved !== file && isSourcePath(resolved) && !isInNodeModules(resolved)) imports.add(resolved);
  }
  return { imports: [...imports].sort(), unresolved: [] };
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
