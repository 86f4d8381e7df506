import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Which build of the package a process runs, as a string two processes can compare: the version
 * in package.json plus the modification time of the hook bundle. The version alone would let a
 * rebuilt checkout (same version, new code) talk to a resident process still running the old
 * code; the bundle is rewritten by every build and every install. Read from disk on every call,
 * so a resident process can notice that a newer package was installed under it.
 */
export function packageIdentity(root: string | null = packageRoot()): string | null {
  if (root === null) return null;
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: unknown };
    const version = typeof pkg.version === 'string' ? pkg.version : '0.0.0';
    const built = Math.floor(statSync(join(root, 'dist', 'hook.bundle.js')).mtimeMs);
    return `${version}+${built}`;
  } catch {
    return null;
  }
}

let cachedRoot: string | null | undefined;

/**
 * The package's root directory: the first parent of this module with our package.json. This file
 * runs from dist/resident/, from a bundle in dist/ or dist/bundle/, so no fixed `../..` fits all.
 */
export function packageRoot(): string | null {
  if (cachedRoot !== undefined) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 5; depth++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      if (pkg.name === 'airspace-hooks') {
        cachedRoot = dir;
        return dir;
      }
    } catch {
      // not here: one level up
    }
  }
  cachedRoot = null;
  return null;
}

/** The bin a resident process is started with: the same build as the caller. */
export function packageBin(root: string): string {
  return join(root, 'bin', 'airspace-hooks.js');
}
