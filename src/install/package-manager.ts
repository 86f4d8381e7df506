import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Which package manager the user's project uses, so every command we print or write is one that
 * runs there. npm refuses `npm i`, `npx` and `npm exec` in a project whose package.json declares
 * another manager in `devEngines.packageManager` (EBADDEVENGINES) — our own package.json has no
 * `engines` entry but Node's, so the refusal is the host project's rule, not ours.
 * Order: `devEngines.packageManager`, corepack's `packageManager` field, then the lockfile.
 */
export type PackageManagerName = 'npm' | 'pnpm' | 'yarn' | 'bun';

export interface PackageManager {
  readonly name: PackageManagerName;
  /** What told us: `devEngines`, `packageManager`, a lockfile's name, or `default`. */
  readonly source: string;
}

const LOCKFILES: ReadonlyArray<readonly [string, PackageManagerName]> = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun'],
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
];

export function detectPackageManager(toplevel: string): PackageManager {
  const pkg = readJson(join(toplevel, 'package.json'));
  const declared = declaredName(pkg?.devEngines);
  if (declared) return { name: declared, source: 'devEngines' };
  const field = typeof pkg?.packageManager === 'string' ? asName(pkg.packageManager.split('@')[0]) : null;
  if (field) return { name: field, source: 'packageManager' };
  for (const [file, name] of LOCKFILES) {
    if (statSync(join(toplevel, file), { throwIfNoEntry: false })?.isFile()) return { name, source: file };
  }
  return { name: 'npm', source: 'default' };
}

/** `devEngines.packageManager` is an object or an array of them (the first one is preferred). */
function declaredName(devEngines: unknown): PackageManagerName | null {
  if (devEngines === null || typeof devEngines !== 'object') return null;
  const entry = (devEngines as { packageManager?: unknown }).packageManager;
  const first = Array.isArray(entry) ? entry[0] : entry;
  const name = first !== null && typeof first === 'object' ? (first as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? asName(name) : null;
}

function asName(text: string | undefined): PackageManagerName | null {
  return text === 'npm' || text === 'pnpm' || text === 'yarn' || text === 'bun' ? text : null;
}

function readJson(path: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** How a command from the project's node_modules/.bin is run with this manager, never downloading it. */
export function binRunner(name: PackageManagerName): string {
  switch (name) {
    case 'pnpm':
      return 'pnpm exec';
    case 'yarn':
      return 'yarn run';
    case 'bun':
      return 'bun run';
    case 'npm':
      return 'npx --no-install';
  }
}
