import { symbolMessages } from '../messages/symbols.js';

/**
 * oxc-parser, loaded on first use only (docs/decisions/symbol-channel.md has the measurement):
 * a run that changed no source file never pays for it. The native binding may be missing on an
 * unusual platform; the channel then reports itself unknown instead of failing the run.
 */

export interface AstNode {
  readonly type: string;
  readonly start: number;
  readonly end: number;
  readonly [key: string]: unknown;
}

export type ParseSource = (file: string, text: string) => AstNode | null;

let loading: Promise<ParseSource | string> | undefined;

/** A parse function, or the reason none is available. */
export function loadParser(): Promise<ParseSource | string> {
  loading ??= import('oxc-parser').then(
    (oxc): ParseSource =>
      (file, text) => {
        const result = oxc.parseSync(file, text, { lang: langOf(file), sourceType: 'unambiguous' });
        // A file with syntax errors still yields a partial tree; a half-read file must not look like
        // one whose exports were removed, so it counts as unreadable.
        return result.errors.some((e) => String(e.severity) === 'Error') ? null : (result.program as unknown as AstNode);
      },
    (error: unknown) => symbolMessages.parserMissing(error instanceof Error ? error.message : String(error)),
  );
  return loading;
}

function langOf(file: string): 'js' | 'jsx' | 'ts' | 'tsx' | 'dts' {
  if (/\.d\.[cm]?ts$/.test(file)) return 'dts';
  if (file.endsWith('.tsx')) return 'tsx';
  if (/\.[cm]?ts$/.test(file)) return 'ts';
  // JSX inside .js files is common (React); the jsx grammar is a superset for our purpose.
  return 'jsx';
}

/** Files the channel reads: JavaScript and TypeScript sources. */
export function isScriptPath(path: string): boolean {
  return /\.(?:[cm]?[jt]s|[jt]sx)$/.test(path);
}
