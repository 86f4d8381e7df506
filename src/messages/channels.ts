/**
 * The channels that need more than a diff: the import graph, its background build, the symbol
 * channel, the scan at scale. One section per concern, each opened by a `// --- name: what ---`
 * line; a section exports named message objects (`as const`, or a record typed by its codes) and
 * the few functions that word a typed result. Symbols are imported by name.
 */

import type { GraphBuildStatus } from '../graph/graph-build-status.js';
import type { SymbolCollision, SymbolLocation } from '../symbols/symbol-types.js';

// --- graph: import-graph warnings and progress (src/graph/) ---

/**
 * User-facing sentences of the import-graph layer (src/graph). The graph layer returns warning
 * codes with these texts; the CLI and `doctor` print them.
 */

export type GraphWarningCode =
  | 'typescript-missing'
  | 'graph-empty'
  | 'tsconfig-unreadable'
  | 'cache-missing'
  | 'cache-unreadable'
  | 'cache-write-failed'
  | 'refresh-over-budget'
  | 'cruise-failed';

export interface GraphWarning {
  readonly code: GraphWarningCode;
  readonly message: string;
}

export const graphMessages = {
  typescriptMissing: (tsFiles: number): string =>
    `import graph: ${tsFiles} TypeScript files but no usable TypeScript compiler (dependency-cruiser needs typescript >=2 <7 with its JS API); ` +
    `oxc-parser could not load either, so their imports are not read and the dependency channel under-reports; \`airspace-hooks doctor\` says what to install here`,
  graphEmpty: (filesWithImports: number, sources: number): string =>
    `import graph: no edges found, yet ${filesWithImports} of ${sources} source files contain import statements; the dependency channel is blind. ` +
    `Run \`airspace-hooks doctor\` and check the tsconfig and the TypeScript install`,
  tsconfigUnreadable: (file: string, reason: string): string =>
    `import graph: ${file} could not be parsed (${reason}); imports are resolved without it, so its paths aliases are not applied`,
  cacheMissing: (): string =>
    'import graph: not built yet; the dependency channel is off until `airspace-hooks graph build` (or the background build a run starts) builds it',
  cacheUnreadable: (file: string, reason: string): string => `import graph: ignoring an unreadable cache ${file} (${reason})`,
  cacheWriteFailed: (file: string, reason: string): string => `import graph: could not save the cache ${file} (${reason})`,
  refreshOverBudget: (remaining: number, budgetMs: number): string =>
    `import graph: refresh stopped at its ${budgetMs} ms budget with ${remaining} files still to read; progress is saved and the next run continues`,
  cruiseFailed: (reason: string): string => `import graph: dependency-cruiser failed (${reason}); using the previous graph`,
  progress: {
    list: 'import graph: listing files',
    load: 'import graph: loading dependency-cruiser',
    cruise: (done: number, total: number): string => `import graph: reading imports ${done}/${total}`,
    save: 'import graph: saving the cache',
  },
} as const;

// --- graph-build: the background import-graph build (src/graph/request-graph-build.ts) ---

/**
 * Sentences about the background import-graph build (src/graph/request-graph-build.ts): the
 * status line a hook, `check` and `doctor` print while the dependency channel waits for it.
 */

const thousands = (n: number): string => n.toLocaleString('en-US');

export const graphBuildMessages = {
  status: (status: GraphBuildStatus, hasGraph: boolean): string => {
    const channel = hasGraph
      ? 'the dependency channel uses the previous graph until then'
      : 'dependency: not ready; overlap, proximity and merge are checked now';
    if (status.state === 'building') {
      const where = status.total > 0 ? `${thousands(status.done)} of ${thousands(status.total)} files` : 'starting';
      return `import graph: building in the background, ${where}; ${channel}`;
    }
    if (status.state === 'failed') return `import graph: the last background build failed (${status.error}); run \`airspace-hooks graph build\` to see why`;
    return hasGraph ? 'import graph: ready' : 'import graph: not built yet; run `airspace-hooks graph build`';
  },
  built: (files: number, ms: number): string => `import graph: ${thousands(files)} files read in ${thousands(Math.round(ms))} ms`,
  alreadyBuilding: (pid: number): string => `import graph: a build is already running (pid ${pid}); its progress: \`airspace-hooks doctor\``,
} as const;

// --- symbols: the symbol channel (docs/decisions/symbol-channel.md) ---

/** Sentences of the symbol channel (docs/decisions/symbol-channel.md). */

const at = (location: SymbolLocation): string => (location.line > 0 ? `${location.file}:${location.line}` : location.file);

function what(c: SymbolCollision): string {
  if (c.change === 'removed') return `removed \`${c.symbol}\` (${at(c.declaration)})`;
  if (c.change === 'renamed') return `renamed \`${c.symbol}\` to \`${c.renamedTo ?? '?'}\` (${at(c.declaration)})`;
  return `changed the signature of \`${c.symbol}\` (${[at(c.declaration), ...c.details.slice(0, 2)].join(', ')})`;
}

function how(c: SymbolCollision): string {
  if (c.args === undefined || c.args === null) return 'uses it';
  return `calls it with ${c.args} argument${c.args === 1 ? '' : 's'}`;
}

export const symbolMessages = {
  parserMissing: (reason: string) => `the symbol parser (oxc-parser) could not be loaded: ${reason}`,
  unreadable: (what: string) => `could not read the changed files: ${what}`,
  cut: "not computed: comparing the symbols took more than this channel's share of the budget",
  /** One import that looks internal (a workspace package, a tsconfig alias) but names no file. */
  unresolvedImport: (specifier: string, why: string) => `\`${specifier}\` (${why})`,
  unresolvedImports: (imports: readonly string[]) =>
    `could not tell: new code imports a changed name through ${imports.length === 1 ? 'an import' : `${imports.length} imports`} that look${imports.length === 1 ? 's' : ''} internal but resolve${imports.length === 1 ? 's' : ''} to no file: ${imports.slice(0, 3).join(', ')}${imports.length > 3 ? ', …' : ''}`,
  tooLarge: (files: number, bytes: number) =>
    `${files} changed source files (${(bytes / 1024 / 1024).toFixed(1)} MB in all versions): more than the symbol channel parses inside a hook`,
  /**
   * One collision, told to `viewer` ("your new code" when the viewer wrote the use). Example:
   * ada changed the signature of `createSession` (src/auth/session.ts:3, 1 → 2 required parameters);
   * your new code in src/api/admin.ts:4 calls it with 1 argument
   */
  collision: (c: SymbolCollision, viewer: string | null) => {
    const changer = viewer === c.changedBy ? 'you' : c.changedBy;
    const user = viewer === c.usedBy ? 'your new code' : `${c.usedBy}'s new code`;
    return `${changer} ${what(c)}; ${user} in ${at(c.use)} ${how(c)}`;
  },
  /** A link's evidence line: the first collision, and how many more. */
  evidence: (first: string, more: number) => `${first}${more > 0 ? ` (and ${more} more)` : ''}`,
} as const;

// --- scale: the contact-only scan (src/run/compute-git-channels.ts) ---

/** Sentences of the contact-only scan (src/run/contact-symbols.ts, src/run/run-airspace.ts). */
export const scaleMessages = {
  /** Said in the report whenever a scan left pairs without contact out of the symbol channel. */
  symbolsSkipped: (pairs: number) =>
    `symbol channel: ${pairs} pair${pairs === 1 ? '' : 's'} with no shared path not parsed (scan does not see a removed export used through an import; the hooks and check compare every pair)`,
} as const;
