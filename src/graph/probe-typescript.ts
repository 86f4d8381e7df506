import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import coerce from 'semver/functions/coerce.js';
import satisfies from 'semver/functions/satisfies.js';

/**
 * Whether dependency-cruiser would find a TypeScript it supports, answered without loading it
 * (loading it costs ~1.7 s of CPU, most of it TypeScript itself; cruise-in-batches.ts needs only
 * this yes/no before it may read files directly). It asks what dependency-cruiser 17.4.3 asks in
 * extract/transpile/try-import-available.mjs: the `typescript` its own location resolves, whose
 * package.json version lies in the range `supportedTranspilers.typescript` of its src/meta.cjs.
 * An answer (with the version found) only when every step gave a clear yes; anything else is
 * `undefined` (not "no"): the caller then loads dependency-cruiser and asks it.
 */
export function probeTypescript(): { readonly version: string } | undefined {
  try {
    // Its exports map is import-only: find its directory the way the resolver walks node_modules.
    const root = createRequire(import.meta.url)
      .resolve.paths('dependency-cruiser')
      ?.map((dir) => join(dir, 'dependency-cruiser'))
      .find(isCruiserPackage);
    if (!root) return undefined;
    const range = /\btypescript:\s*"([^"]+)"/.exec(readFileSync(join(root, 'src', 'meta.cjs'), 'utf8'))?.[1];
    if (!range) return undefined;
    const fromCruiser = createRequire(join(root, 'src', 'extract', 'transpile', 'try-import-available.mjs'));
    const version = String((fromCruiser('typescript/package.json') as { version?: unknown }).version);
    // The same test dependency-cruiser makes: satisfies(coerce(version), range).
    const installed = coerce(version);
    if (!installed || !satisfies(installed, range)) return undefined;
    fromCruiser.resolve('typescript');
    return { version };
  } catch {
    return undefined;
  }
}

function isCruiserPackage(dir: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name === 'dependency-cruiser';
  } catch {
    return false;
  }
}
