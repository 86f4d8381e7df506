/**
 * The one place oxc-parser is imported, on first use only: the import graph's direct reader
 * (src/graph/read-imports-directly.ts) and the symbol channel (src/symbols/load-parser.ts) each
 * parse with their own options, from the same module. A run that parses nothing never pays for
 * it (docs/decisions/symbol-channel.md has the measurement). The native binding may be missing
 * on an unusual platform: the reason is returned, and each caller falls back in its own way.
 */

export type OxcParser = typeof import('oxc-parser');

let loading: Promise<OxcParser | string> | undefined;

/** The parser module, or the reason it could not be loaded. */
export function loadOxcParser(): Promise<OxcParser | string> {
  loading ??= import('oxc-parser').then(
    (oxc) => oxc,
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  return loading;
}

/** The grammar a file is parsed with. */
export function oxcLang(file: string): 'jsx' | 'ts' | 'tsx' | 'dts' {
  if (/\.d\.[cm]?ts$/.test(file)) return 'dts';
  if (file.endsWith('.tsx')) return 'tsx';
  if (/\.[cm]?ts$/.test(file)) return 'ts';
  // JSX inside .js files is common (React), and TypeScript reads .js/.cjs/.mjs with JSX allowed:
  // for our purpose the jsx grammar is a superset. A file oxc rejects is left to each caller.
  return 'jsx';
}
