import { posix } from 'node:path';
import type { ResolverLibraries } from './resolver-libraries.js';

/**
 * What a repository declares about how its imports resolve beyond relative paths: its workspace
 * packages (npm/yarn `workspaces` in the root package.json, pnpm's pnpm-workspace.yaml) with their
 * manifests, and the `paths` aliases of every tsconfig.json / jsconfig.json (root and per package,
 * `extends` chains inside the repository followed). Read from any tree — the working tree on disk
 * (the import graph) or one side's commit (the symbol channel) — through `readText`.
 */

export interface PackageManifest {
  readonly name?: unknown;
  readonly exports?: unknown;
  readonly main?: unknown;
  readonly module?: unknown;
  readonly types?: unknown;
  readonly typings?: unknown;
  readonly source?: unknown;
  readonly workspaces?: unknown;
  readonly dependencies?: unknown;
  readonly devDependencies?: unknown;
  readonly peerDependencies?: unknown;
  readonly optionalDependencies?: unknown;
}

export interface WorkspacePackage {
  /** Repo-relative directory ('' for the root package). */
  readonly dir: string;
  readonly manifest: PackageManifest;
}

export interface PathAliases {
  /** Repo-relative path of the config whose `paths` are in effect. */
  readonly config: string;
  /** The `paths` keys (`@app/*`, `vue`). */
  readonly patterns: readonly string[];
  /** Candidate repo-relative paths for a specifier (from `paths`, then `baseUrl`); may leave the repository. */
  candidates(specifier: string): string[];
  readonly hasBaseUrl: boolean;
}

export interface WorkspaceLayout {
  readonly packages: ReadonlyMap<string, WorkspacePackage>;
  /**
   * Directory of the root and of each workspace package → the package names its package.json
   * depends on from a registry (not `workspace:` links): an alias pattern that also matches one
   * of these (`@vue/*` and `@vue/test-utils`) falls back to node_modules, as TypeScript does.
   */
  readonly registryDependencies: ReadonlyMap<string, ReadonlySet<string>>;
  /** Directory of a tsconfig.json / jsconfig.json → its aliases (only configs with `paths` or `baseUrl`). */
  readonly aliases: ReadonlyMap<string, PathAliases>;
  /** The root config when it is not in `aliases` under '' (tsconfig.base.json alone at the root). */
  readonly rootAliases?: PathAliases;
}

const MAX_EXTENDS = 8;
/** A stand-in absolute root for get-tsconfig's matcher, deep enough that `../` past the repository stays visible. */
const ROOT = '/airspace-repository-root';
/** The root configs, in the order the import graph has always looked for one (src/graph/find-root-tsconfig.ts). */
export const ROOT_CONFIGS = ['tsconfig.json', 'tsconfig.base.json', 'jsconfig.json'] as const;

/**
 * `paths` lists every layout file of the tree (package.json, pnpm-workspace.yaml, tsconfig*.json,
 * jsconfig.json; node_modules excluded by the caller); `readText` their content (undefined when
 * unreadable). Unparsable files are skipped: a layout is a best effort, and an import it cannot
 * resolve is reported by the resolver, not here.
 */
export function readWorkspaceLayout(paths: Iterable<string>, readText: (path: string) => string | undefined, libraries: ResolverLibraries): WorkspaceLayout {
  const { parseJsonc, picomatch } = libraries;
  const all = [...paths].filter((path) => !path.includes('node_modules/'));
  const json = (path: string): Record<string, unknown> | undefined => {
    const text = readText(path);
    if (text === undefined) return undefined;
    try {
      const value: unknown = parseJsonc(text);
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };

  const root = json('package.json') as PackageManifest | undefined;
  const globs = [...workspaceGlobs(root?.workspaces), ...pnpmGlobs(readText('pnpm-workspace.yaml'))];
  const isMember = globs.length > 0 ? picomatch(globs.map((glob) => glob.replace(/^\.\//, '').replace(/\/+$/, ''))) : () => false;
  const packages = new Map<string, WorkspacePackage>();
  const registryDependencies = new Map<string, ReadonlySet<string>>();
  for (const path of all) {
    if (posix.basename(path) !== 'package.json') continue;
    const dir = posix.dirname(path) === '.' ? '' : posix.dirname(path);
    if (dir !== '' && !isMember(dir)) continue;
    const manifest = dir === '' ? root : (json(path) as PackageManifest | undefined);
    if (!manifest) continue;
    if (typeof manifest.name === 'string' && manifest.name !== '' && !packages.has(manifest.name)) packages.set(manifest.name, { dir, manifest });
    registryDependencies.set(dir, fromRegistry(manifest));
  }

  const aliases = new Map<string, PathAliases>();
  for (const path of all) {
    const name = posix.basename(path);
    if (name !== 'tsconfig.json' && name !== 'jsconfig.json') continue;
    const dir = posix.dirname(path) === '.' ? '' : posix.dirname(path);
    if (aliases.has(dir) && name === 'jsconfig.json') continue;
    const found = readAliases(path, json, libraries);
    if (found) aliases.set(dir, found);
  }
  const rootConfig = ROOT_CONFIGS.find((name) => all.includes(name));
  const rootAliases = rootConfig !== undefined && !aliases.has('') ? readAliases(rootConfig, json, libraries) : undefined;
  return { packages, registryDependencies, aliases, ...(rootAliases ? { rootAliases } : {}) };
}

function fromRegistry(manifest: PackageManifest): Set<string> {
  const names = new Set<string>();
  for (const field of [manifest.dependencies, manifest.devDependencies, manifest.peerDependencies, manifest.optionalDependencies]) {
    if (field === null || typeof field !== 'object') continue;
    for (const [name, range] of Object.entries(field)) {
      if (typeof range === 'string' && !range.startsWith('workspace:') && !range.startsWith('link:') && !range.startsWith('file:')) names.add(name);
    }
  }
  return names;
}

function workspaceGlobs(workspaces: unknown): string[] {
  const list = Array.isArray(workspaces) ? workspaces : (workspaces as { packages?: unknown } | undefined)?.packages;
  return Array.isArray(list) ? list.filter((glob): glob is string => typeof glob === 'string' && !glob.startsWith('!')) : [];
}

/** The `packages:` list of pnpm-workspace.yaml (a YAML block list of strings; negations skipped). */
function pnpmGlobs(text: string | undefined): string[] {
  if (text === undefined) return [];
  const globs: string[] = [];
  let inPackages = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^packages:\s*$/.test(line)) {
      inPackages = true;
      continue;
    }
    if (!inPackages) continue;
    const item = /^\s+-\s*(['"]?)([^'"#]+?)\1\s*(?:#.*)?$/.exec(line);
    if (item) {
      if (!item[2]!.startsWith('!')) globs.push(item[2]!);
    } else if (line.trim() !== '' && !line.trim().startsWith('#')) inPackages = false;
  }
  return globs;
}

interface Found {
  readonly path: string;
  readonly value: unknown;
}

/** `paths` and `baseUrl` of a config and its `extends` chain (relative `extends` only: a package's preset lives in node_modules). */
function readAliases(
  path: string,
  json: (path: string) => Record<string, unknown> | undefined,
  { createPathsMatcher }: ResolverLibraries,
): PathAliases | undefined {
  let paths: Found | undefined;
  let baseUrl: Found | undefined;
  const seen = new Set<string>();
  const visit = (config: string, depth: number): void => {
    if (depth > MAX_EXTENDS || seen.has(config)) return;
    seen.add(config);
    const content = json(config);
    if (!content) return;
    const options = content.compilerOptions as Record<string, unknown> | undefined;
    // The nearest declaration wins: the config itself, then what it extends, in order (later ones win in TypeScript).
    if (paths === undefined && options?.paths !== undefined && typeof options.paths === 'object') paths = { path: config, value: options.paths };
    if (baseUrl === undefined && typeof options?.baseUrl === 'string') baseUrl = { path: config, value: options.baseUrl };
    const parents = typeof content.extends === 'string' ? [content.extends] : Array.isArray(content.extends) ? content.extends : [];
    for (const parent of [...parents].reverse()) {
      if (typeof parent !== 'string' || !parent.startsWith('.')) continue;
      const resolved = posix.normalize(posix.join(posix.dirname(config), parent));
      visit(resolved.endsWith('.json') ? resolved : `${resolved}.json`, depth + 1);
    }
  };
  visit(path, 0);
  if (!paths && !baseUrl) return undefined;
  const owner = paths?.path ?? baseUrl!.path;
  // get-tsconfig's matcher takes one config: `baseUrl` made relative to the config holding `paths`.
  const absoluteBase = baseUrl ? posix.join(ROOT, posix.dirname(baseUrl.path), baseUrl.value as string) : undefined;
  const ownerAbsolute = posix.join(ROOT, owner);
  const compilerOptions: Record<string, unknown> = {
    ...(paths ? { paths: paths.value } : {}),
    ...(absoluteBase !== undefined ? { baseUrl: posix.relative(posix.dirname(ownerAbsolute), absoluteBase) || '.' } : {}),
  };
  let matcher: ((specifier: string) => string[]) | null = null;
  try {
    matcher = createPathsMatcher({ path: ownerAbsolute, config: { compilerOptions } as never });
  } catch {
    matcher = null;
  }
  const patterns = paths ? Object.keys(paths.value as Record<string, unknown>) : [];
  return {
    config: owner,
    patterns,
    hasBaseUrl: baseUrl !== undefined,
    candidates(specifier) {
      if (!matcher) return [];
      // Outside the repository (ROOT's parent) is not ours to resolve.
      return matcher(specifier)
        .map((absolute) => posix.normalize(absolute))
        .filter((absolute) => absolute === ROOT || absolute.startsWith(`${ROOT}/`))
        .map((absolute) => absolute.slice(ROOT.length + 1));
    },
  };
}
