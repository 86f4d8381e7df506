import { isBuiltin } from 'node:module';
import { posix } from 'node:path';
import type { ResolverLibraries } from './resolver-libraries.js';
import { isRelativeSpecifier, resolveRelativeImport, resolveRepoPath, type PathLookup } from './resolve-relative-import.js';
import type { PathAliases, WorkspaceLayout, WorkspacePackage } from './workspace-layout.js';

/**
 * The one resolver of import specifiers for the import graph and the symbol channel: relative
 * imports (src/source/resolve-relative-import.ts), tsconfig `paths` aliases of the importer's
 * nearest tsconfig.json and of the root config, and workspace packages by name — to the package's
 * SOURCE, not its build output: a monorepo's `main`/`types`/`exports` point at dist/, which a fresh
 * clone does not have and which is not where the other agent edits. What resolves is a file of the
 * tree; what names something outside the repository is `external`; an import that looks internal
 * (an alias pattern matched, or a workspace package's name) but names no file is `unresolved`, with
 * a reason: a caller must not read it as "nothing there".
 */

export type Resolution =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'external' }
  | { readonly kind: 'unresolved'; readonly why: string }
  /** The lookup could not tell (a symlink, a case-only match, a directory with its own package.json). */
  | { readonly kind: 'unsure' };

export interface ImportResolver {
  /** `importer` is the repo-relative path of the importing file. */
  resolve(importer: string, specifier: string): Resolution;
}

const EXTERNAL: Resolution = { kind: 'external' };
const UNSURE: Resolution = { kind: 'unsure' };
/** Folders that hold build output; their files are mapped back to the package's `src/`. */
const OUTPUT_DIRS = new Set(['dist', 'lib', 'build', 'out', 'esm', 'cjs', 'types', 'dts']);
const SCRIPT_EXTENSION = /(?:\.d)?\.[cm]?[jt]sx?$/;
/** Conditions of an `exports` map, tried in this order: source-like ones first. */
const CONDITION_SETS: readonly (readonly string[])[] = [['source'], ['types'], ['import'], ['module'], ['require'], ['node'], ['default']];

/**
 * `readText` reads a repository file (a folder's package.json); given, a relative import of a
 * folder with its own package.json follows its `main` (then `types`, `typings`, then `index`), and
 * a `?query` or `#fragment` suffix (`./x.js?raw`, a bundler's) is resolved without it, as
 * dependency-cruiser's resolver does. Without it such imports are `unsure`.
 */
export function openImportResolver(
  layout: WorkspaceLayout,
  lookup: PathLookup,
  libraries: ResolverLibraries,
  readText?: (path: string) => string | undefined,
): ImportResolver {
  const packageNames = [...layout.packages.keys()];
  return {
    resolve(importer, specifier) {
      const dir = dirOf(importer);
      if (isRelativeSpecifier(specifier)) {
        const found = resolveRelativeImport(lookup, dir, specifier) ?? (readText ? resolveRelativeHarder(lookup, readText, dir, specifier) : undefined);
        return found === undefined ? UNSURE : { kind: 'file', path: found };
      }
      if (specifier.startsWith('node:') || isBuiltin(specifier) || specifier.startsWith('/')) return EXTERNAL;
      let aliased: string | undefined;
      for (const aliases of configsFor(layout, dir)) {
        const matched = matchesAlias(aliases, specifier);
        for (const candidate of aliases.candidates(specifier)) {
          const found = resolveRepoPath(lookup, candidate);
          if (found !== undefined) return { kind: 'file', path: found };
        }
        if (matched) aliased ??= aliases.config;
      }
      const name = packageNameOf(specifier);
      const owner = name === undefined ? undefined : layout.packages.get(name);
      if (owner && name !== undefined) {
        const found = resolvePackageSource(lookup, owner, `.${specifier.slice(name.length)}`, libraries);
        return found === undefined
          ? { kind: 'unresolved', why: `workspace package ${name} (${owner.dir || '.'}/package.json)` }
          : { kind: 'file', path: found };
      }
      if (name !== undefined && dependsOn(layout, dir, name)) return EXTERNAL;
      if (aliased !== undefined) return { kind: 'unresolved', why: `\`paths\` of ${aliased}` };
      // `@scope/x` when the workspace has other `@scope/` packages: a package not found, or renamed.
      const scope = name?.startsWith('@') ? name.slice(0, name.indexOf('/') + 1) : undefined;
      if (scope !== undefined && packageNames.some((known) => known.startsWith(scope)))
        return { kind: 'unresolved', why: `no workspace package ${name} among the ${scope} packages` };
      return EXTERNAL;
    },
  };
}

function resolveRelativeHarder(lookup: PathLookup, readText: (path: string) => string | undefined, dir: string, specifier: string): string | undefined {
  const plain = specifier.replace(/[?#].*$/, '');
  if (plain !== specifier && plain !== '') return resolveRelativeImport(lookup, dir, plain) ?? resolveRelativeHarder(lookup, readText, dir, plain);
  const target = posix.normalize(posix.join(dir || '.', plain)).replace(/\/$/, '');
  if (target === '..' || target.startsWith('../') || target.startsWith('/')) return undefined;
  const folder = target === '.' ? '' : target;
  const manifestPath = folder === '' ? 'package.json' : `${folder}/package.json`;
  if (lookup.kind(manifestPath) !== 'file') return undefined;
  let manifest: Record<string, unknown> = {};
  try {
    manifest = JSON.parse(readText(manifestPath) ?? '{}') as Record<string, unknown>;
  } catch {
    // An unreadable package.json: its folder's index, as a resolver falls back to.
  }
  // enhanced-resolve's mainFields as dependency-cruiser configures them (main/resolve-options/normalize.mjs).
  for (const field of [manifest.main, manifest.types, manifest.typings]) {
    if (typeof field !== 'string') continue;
    const found = resolveRepoPath(lookup, posix.normalize(posix.join(folder || '.', field)));
    if (found !== undefined) return found;
  }
  return resolveRepoPath(lookup, posix.join(folder || '.', 'index'));
}

/** The importer's nearest workspace package (or the root) declares `name` from a registry. */
function dependsOn(layout: WorkspaceLayout, dir: string, name: string): boolean {
  for (let at = dir; ; at = at.includes('/') ? at.slice(0, at.lastIndexOf('/')) : '') {
    const declared = layout.registryDependencies.get(at);
    if (declared?.has(name)) return true;
    if (at === '') return false;
  }
}

function dirOf(importer: string): string {
  const dir = posix.dirname(importer);
  return dir === '.' ? '' : dir;
}

/** The importer's nearest tsconfig.json / jsconfig.json with aliases, then the root's. */
function configsFor(layout: WorkspaceLayout, dir: string): PathAliases[] {
  const found: PathAliases[] = [];
  for (let at = dir; ; at = at.includes('/') ? at.slice(0, at.lastIndexOf('/')) : '') {
    const aliases = layout.aliases.get(at);
    if (aliases) {
      found.push(aliases);
      break;
    }
    if (at === '') break;
  }
  const root = layout.aliases.get('') ?? layout.rootAliases;
  if (root && !found.includes(root)) found.push(root);
  return found;
}

/** A `paths` key matches (`@app/*`, or exactly): the catch-all `*` makes no import look internal. */
function matchesAlias(aliases: PathAliases, specifier: string): boolean {
  return aliases.patterns.some((pattern) => {
    const star = pattern.indexOf('*');
    if (star < 0) return pattern === specifier;
    if (pattern === '*') return false;
    const prefix = pattern.slice(0, star);
    const suffix = pattern.slice(star + 1);
    return specifier.length >= prefix.length + suffix.length && specifier.startsWith(prefix) && specifier.endsWith(suffix);
  });
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
export function packageNameOf(specifier: string): string | undefined {
  const parts = specifier.split('/');
  if (specifier.startsWith('@')) return parts.length >= 2 && parts[1] !== '' ? `${parts[0]}/${parts[1]}` : undefined;
  return parts[0] === '' ? undefined : parts[0];
}

/**
 * The source file behind a package entry (`.` or `./sub`): the targets its `exports` map gives
 * (source-like conditions first), else `source`, `types`, `module`, `main` — each mapped from a
 * build folder back to `src/` first, then `src/index`, then the targets as they are (a package
 * that ships its sources), then the package's own `index`.
 */
function resolvePackageSource(lookup: PathLookup, owner: WorkspacePackage, subpath: string, { exportTargets }: ResolverLibraries): string | undefined {
  const { manifest, dir } = owner;
  const targets: string[] = [];
  if (manifest.exports !== undefined && manifest.exports !== null) {
    for (const conditions of CONDITION_SETS) {
      try {
        targets.push(...(exportTargets(manifest as never, subpath, { unsafe: true, conditions: [...conditions] }) ?? []));
      } catch {
        // No entry for this subpath under these conditions.
      }
    }
  } else if (subpath === '.') {
    for (const field of [manifest.source, manifest.types, manifest.typings, manifest.module, manifest.main]) if (typeof field === 'string') targets.push(field);
  } else targets.push(subpath);
  const inPackage = (target: string): string | undefined => {
    const joined = posix.normalize(posix.join(dir || '.', target));
    return joined === '..' || joined.startsWith('../') || joined.startsWith('/') ? undefined : joined === '.' ? '' : joined;
  };
  const unique = [...new Set(targets.map(inPackage).filter((target): target is string => target !== undefined))];
  const attempts: string[] = [];
  for (const target of unique) {
    const relative = dir === '' ? target : target.slice(dir.length + 1);
    const [first, ...rest] = relative.split('/');
    if (first !== undefined && OUTPUT_DIRS.has(first) && rest.length > 0) {
      const stem = rest.join('/').replace(SCRIPT_EXTENSION, '');
      attempts.push(posix.join(dir, 'src', stem));
      // dist/esm/index.js, lib/cjs/x.js: one more build folder inside.
      if (rest.length > 1 && OUTPUT_DIRS.has(rest[0]!)) attempts.push(posix.join(dir, 'src', rest.slice(1).join('/').replace(SCRIPT_EXTENSION, '')));
    }
  }
  if (subpath === '.') attempts.push(posix.join(dir, 'src', 'index'));
  else if (manifest.exports === undefined) attempts.push(posix.join(dir, 'src', subpath));
  for (const target of unique) {
    const relative = dir === '' ? target : target.slice(dir.length + 1);
    if (OUTPUT_DIRS.has(relative.split('/')[0]!)) continue;
    attempts.push(target, target.replace(SCRIPT_EXTENSION, ''));
  }
  if (subpath === '.') attempts.push(posix.join(dir, 'index'));
  for (const attempt of attempts) {
    const found = resolveRepoPath(lookup, attempt);
    if (found !== undefined && SCRIPT_EXTENSION.test(found)) return found;
  }
  return undefined;
}
