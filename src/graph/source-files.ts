import { isLayoutPath } from '../source/layout-files.js';

/**
 * Which repository files are nodes of the import graph, and which files change how imports
 * resolve. Pure path logic: no fs, no git.
 */

const EXTENSION_PATTERN = /\.(?:d\.)?(?:[cm]?[jt]sx?)$/;

/** A graph node: a source file outside node_modules. */
export function isSourcePath(path: string): boolean {
  return EXTENSION_PATTERN.test(path) && !isInNodeModules(path);
}

export function isInNodeModules(path: string): boolean {
  return path.startsWith('node_modules/') || path.includes('/node_modules/');
}

/**
 * Files whose change alters how every import resolves (tsconfig `paths`, `baseUrl`, `extends`;
 * a workspace package's name, `exports`, `main`; the workspace's members): a change to any of
 * them makes the cached graph invalid as a whole.
 */
export function isResolutionConfigPath(path: string): boolean {
  return !isInNodeModules(path) && isLayoutPath(path);
}

/** `src/util/index.ts` → `index`; `a/b.d.ts` → `b`; `./x.js` → `x`; `@app/b` → `b`. */
export function pathStem(path: string): string {
  const name = path.replace(/\/+$/, '').slice(path.replace(/\/+$/, '').lastIndexOf('/') + 1);
  return name.replace(EXTENSION_PATTERN, '');
}

/** `src/util/index.ts` → `src/util`; `a.ts` → ``. */
export function pathDir(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}
