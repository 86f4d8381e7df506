import { posix } from 'node:path';

/**
 * The one resolver of relative imports (`./x`, `../y/z.js`, `.`), shared by the import graph's
 * direct reader (src/graph/read-imports-directly.ts, over directory listings) and the symbol
 * channel (src/symbols/resolve-import.ts, over one side's git tree), so that both name the same
 * file for the same import. It resolves the way dependency-cruiser 17.4.3 does for the graph's
 * settings, asking `kind` instead of calling stat:
 * - enhanced-resolve (extract/resolve/resolve.mjs): the path as written, then the path plus each
 *   extension of RESOLVE_EXTENSIONS in order; then, for a directory, its `index` the same way;
 * - dependency-cruiser's retry (extract/resolve/index.mjs, `resolveWithRetry`): a `.js`, `.jsx`,
 *   `.cjs` or `.mjs` import that did not resolve is tried again without its extension and kept
 *   only when it lands on a TypeScript file. The retry asks for `.ts`/`.tsx`/`.d.ts` only, but
 *   within one cruise dependency-cruiser reuses the resolver its first resolution built
 *   (extract/resolve/resolve.mjs `init`: a new one only when `bustTheCache`), so the retry
 *   really tries the full RESOLVE_EXTENSIONS list: `./x.js` finds `x.mts` before `x.d.ts`
 *   (test graph-direct-read, `dual`). We give the edges the rest of the build gets.
 * Returns the repo-relative file, or `undefined` when the answer is not certain: anything that
 * escapes the repository, a query or loader suffix, a directory with a package.json (its `main`),
 * an import that resolves nowhere (dependency-cruiser's "couldNotResolve" bookkeeping), and every
 * `unsure` entry. The graph then asks dependency-cruiser itself; the symbol channel follows nothing.
 */

/**
 * Extensions the resolver tries for an extension-less import, in TypeScript's order of preference
 * (a `.ts` file beats a `.js` file of the same name), declaration files last. dependency-cruiser
 * is given the same list (src/graph/run-cruise.ts).
 */
export const RESOLVE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.d.ts'] as const;

/**
 * What a repo-relative path is in the tree being resolved against (normalized: no `.`/`..`, no
 * trailing slash). `unsure` when a stat-based resolver could answer differently; a lookup that
 * knows only files (a git tree probed path by path) answers `file` or `none`.
 */
export interface PathLookup {
  kind(path: string): 'file' | 'dir' | 'none' | 'unsure';
}

const RETRIED = new Set(['.js', '.jsx', '.cjs', '.mjs']);
const TYPESCRIPT_ISH = new Set(['.ts', '.tsx', '.cts', '.mts']);
/** Characters that make a specifier more than a path: loaders (`!`), queries, fragments, escapes. */
const NOT_A_PLAIN_PATH = /[!?#\\%\0]/;

type Outcome = { readonly found: string } | 'none' | 'unsure';

export function isRelativeSpecifier(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..';
}

/** `fromDir` is the importing file's repo-relative directory ('' at the root). */
export function resolveRelativeImport(entries: PathLookup, fromDir: string, specifier: string): string | undefined {
  if (!isRelativeSpecifier(specifier) || NOT_A_PLAIN_PATH.test(specifier)) return undefined;
  const target = repoPath(fromDir, specifier);
  if (target === undefined) return undefined;
  // `../src/` names the directory only (enhanced-resolve tries no `src.ts` for it): its index.
  if (specifier.endsWith('/')) {
    const index = resolveDirectory(entries, target, RESOLVE_EXTENSIONS);
    return index === 'none' || index === 'unsure' ? undefined : index.found;
  }
  return resolveRepoPath(entries, target);
}

/**
 * A normalized repo-relative path as an import names it (`packages/x/src/util.js`): the file
 * itself, with an extension, as a directory's `index`, or a `.js`-family path retried as the
 * TypeScript file it was compiled from. The same steps as a relative import, for the targets of
 * tsconfig `paths` and package entry points (src/source/resolve-import-specifier.ts).
 */
export function resolveRepoPath(entries: PathLookup, target: string): string | undefined {
  const first = resolvePath(entries, target, RESOLVE_EXTENSIONS);
  if (first !== 'none') return first === 'unsure' ? undefined : first.found;
  const extension = posix.extname(target);
  if (!RETRIED.has(extension)) return undefined;
  const second = resolvePath(entries, target.slice(0, -extension.length), RESOLVE_EXTENSIONS);
  if (second === 'none' || second === 'unsure') return undefined;
  return TYPESCRIPT_ISH.has(posix.extname(second.found)) ? second.found : undefined;
}

/** Normalized repo-relative path, or undefined when it leaves the repository. */
function repoPath(fromDir: string, specifier: string): string | undefined {
  const joined = posix.normalize(posix.join(fromDir === '' ? '.' : fromDir, specifier));
  if (joined === '..' || joined.startsWith('../') || joined.startsWith('/')) return undefined;
  return joined === '.' ? '' : joined.replace(/\/$/, '');
}

/**
 * Asked only of files, so that a lookup that knows no directories gives the same answer: `path`
 * that is not a directory has no `package.json` and no `index` under it, and under an `unsure`
 * directory every entry is `unsure`.
 */
function resolvePath(entries: PathLookup, path: string, extensions: readonly string[]): Outcome {
  const asFile = firstFile(entries, path === '' ? [] : [path, ...extensions.map((extension) => path + extension)]);
  if (asFile !== 'none') return asFile;
  return resolveDirectory(entries, path, extensions);
}

/** `path` as a directory: its `index` with each extension (a package.json there is not modelled). */
function resolveDirectory(entries: PathLookup, path: string, extensions: readonly string[]): Outcome {
  const prefix = path === '' ? '' : `${path}/`;
  // A package.json may name a `main` file: not modelled here.
  if (entries.kind(`${prefix}package.json`) !== 'none') return 'unsure';
  const index = `${prefix}index`;
  return firstFile(entries, [index, ...extensions.map((extension) => index + extension)]);
}

function firstFile(entries: PathLookup, candidates: readonly string[]): Outcome {
  for (const candidate of candidates) {
    const kind = entries.kind(candidate);
    if (kind === 'file') return { found: candidate };
    if (kind === 'unsure') return 'unsure';
  }
  return 'none';
}

/**
 * Every path `resolveRelativeImport` may ask about for this import, so that a caller whose lookup
 * is slow (git) can ask for them all at once; [] for an import it never resolves.
 */
export function resolutionProbes(fromDir: string, specifier: string): string[] {
  const asked: string[] = [];
  resolveRelativeImport(
    {
      kind(path) {
        asked.push(path);
        return 'none';
      },
    },
    fromDir,
    specifier,
  );
  return asked;
}
