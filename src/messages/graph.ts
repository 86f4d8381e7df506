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
    `their imports are not read and the dependency channel under-reports. Fix: npm i -D typescript@5`,
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
