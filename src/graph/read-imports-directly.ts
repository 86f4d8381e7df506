import { readFileSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { loadOxcParser, oxcLang } from '../source/load-oxc-parser.js';
import { openImportResolver, type ImportResolver } from '../source/resolve-import-specifier.js';
import { loadResolverLibraries } from '../source/resolver-libraries.js';
import { readWorkspaceLayout } from '../source/workspace-layout.js';
import { isRelativeSpecifier, resolveRelativeImport } from '../source/resolve-relative-import.js';
import { openDirectoryEntries, type DirectoryEntries, type EntryKind } from './directory-entries.js';
import { readAllImportSpecifiers } from './read-all-import-specifiers.js';
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

export interface DirectReaderOptions {
  /** The repository's package.json / pnpm-workspace.yaml / tsconfig files: package and alias imports are read too. */
  readonly layoutFiles?: readonly string[];
  /**
   * Leave nothing to dependency-cruiser (there is no TypeScript it could read these files with):
   * CommonJS, `import x = require()`, type-level `import()` and triple-slash references come from
   * oxc's syntax tree (read-all-import-specifiers.ts), a file with syntax errors gives what oxc
   * recovered, and an import the listings cannot settle (a symlink) is asked of the disk.
   */
  readonly complete?: boolean;
}

/** undefined when oxc-parser's native binding cannot load here: then everything goes to dependency-cruiser. */
export async function openDirectReader(toplevel: string, options: DirectReaderOptions = {}): Promise<DirectReader | undefined> {
  const oxc = await loadOxcParser();
  if (typeof oxc === 'string') return undefined;
  const complete = options.complete === true;
  const parse: ParseModule = (file, text) => {
    const result = oxc.parseSync(file, text, { lang: oxcLang(file), sourceType: 'module' });
    // With no one to hand it to, a file with syntax errors gives what oxc recovered, as
    // dependency-cruiser's TypeScript parser does; otherwise dependency-cruiser reads it.
    return result.errors.length > 0 && !complete ? undefined : (result.module as ModuleRecord);
  };
  const parseAll = (file: string, text: string): string[] => {
    const result = oxc.parseSync(file, text, { lang: oxcLang(file), sourceType: 'unambiguous' });
    return readAllImportSpecifiers({ program: result.program, comments: result.comments });
  };
  const listed = openDirectoryEntries(toplevel);
  const entries: DirectoryEntries = complete ? { kind: (path) => settle(toplevel, path, listed.kind(path)) } : listed;
  const read = (path: string): string | undefined => readText(toplevel, path);
  let resolver: ImportResolver | undefined;
  if (options.layoutFiles) {
    const libraries = await loadResolverLibraries();
    resolver = openImportResolver(readWorkspaceLayout(options.layoutFiles, read, libraries), entries, libraries, complete ? read : undefined);
  }
  const readOne = (file: string): CruisedFile | undefined => {
    if (!complete && !isTypescriptCompatible(file)) return undefined;
    const text = readText(toplevel, file);
    if (text === undefined) return complete ? { imports: [], unresolved: [] } : undefined;
    // Nothing to import with: dependency-cruiser finds no dependency in such a file whether or not
    // it parses, and it is this case (a file oxc rejects, mid-edit or not code at all) that would
    // otherwise load dependency-cruiser and TypeScript (~1.7 s) for a record with no edges.
    if (!MAY_IMPORT.test(text)) return { imports: [], unresolved: [] };
    const specifiers = readImportSpecifiers(file, text, parse) ?? (complete ? parseAll(file, text) : undefined);
    if (!specifiers) return undefined;
    const dir = pathDir(file);
    const imports = new Set<string>();
    const unresolved = new Set<string>();
    for (const specifier of specifiers) {
      if (isCoreModule(specifier)) continue;
      let resolved: string | undefined;
      // With dependency-cruiser at hand, a relative import the listings cannot settle goes to it;
      // without, the resolver also follows a folder's package.json and drops a `?query`.
      if (!resolver || (isRelativeSpecifier(specifier) && !complete)) resolved = resolveRelativeImport(entries, dir, specifier);
      else {
        const resolution = resolver.resolve(file, specifier);
        if (resolution.kind === 'external') continue;
        if (resolution.kind === 'unresolved') {
          unresolved.add(specifier);
          continue;
        }
        if (resolution.kind === 'file') resolved = resolution.path;
        else if (resolution.kind === 'unsure') resolved = undefined;
      }
      if (resolved === undefined) {
        if (!complete) return undefined;
        // Without a package resolver a bare name is a package: dependency-cruiser's "could not resolve".
        unresolved.add(specifier);
        continue;
      }
      // As run-cruise.ts keeps them: repository sources other than the file itself.
      if (resolved !== file && isSourcePath(resolved) && !isInNodeModules(resolved)) imports.add(resolved);
    }
    return { imports: [...imports].sort(), unresolved: [...unresolved].sort() };
  };
  return {
    read(files) {
      const records = new Map<string, CruisedFile>();
      const rest: string[] = [];
      for (const file of files) {
        const record = readOne(file);
        if (record) records.set(file, record);
        else rest.push(file);
      }
      return { records, rest };
    },
  };
}

/** What the listings could not settle (a symlink on the way, a case-only match), asked of the disk as a resolver would. */
function settle(toplevel: string, path: string, kind: EntryKind): EntryKind {
  if (kind !== 'unsure') return kind;
  try {
    const stat = statSync(join(toplevel, path), { throwIfNoEntry: false });
    return stat === undefined ? 'none' : stat.isFile() ? 'file' : stat.isDirectory() ? 'dir' : 'none';
  } catch {
    return 'none';
  }
}

function readText(toplevel: string, path: string): string | undefined {
  try {
    return readFileSync(join(toplevel, path), 'utf8');
  } catch {
    return undefined;
  }
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
