import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The one tsconfig whose `paths`/`baseUrl` drive resolution: the repository root's. A monorepo
 * whose packages declare their own `paths` in per-package tsconfigs only gets the root's aliases
 * (see docs/decisions/import-graph.md); most monorepos put shared aliases in a root
 * tsconfig.json or tsconfig.base.json, which is what we look for, in this order.
 */
const CANDIDATES = ['tsconfig.json', 'tsconfig.base.json', 'jsconfig.json'];

/** Repo-relative name of the root tsconfig, or undefined. */
export function findRootTsconfig(toplevel: string): string | undefined {
  return CANDIDATES.find((name) => existsSync(join(toplevel, name)));
}
