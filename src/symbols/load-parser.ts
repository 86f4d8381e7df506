import { symbolMessages } from '../messages/channels.js';
import { loadOxcParser, oxcLang } from '../source/load-oxc-parser.js';

/**
 * The symbol channel's parse function, on oxc-parser (src/source/load-oxc-parser.ts) loaded on
 * first use only: a run that changed no source file never pays for it. When the native binding
 * is missing, the channel reports itself unknown instead of failing the run.
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
  loading ??= loadOxcParser().then((oxc): ParseSource | string =>
    typeof oxc === 'string'
      ? symbolMessages.parserMissing(oxc)
      : (file, text) => {
          const result = oxc.parseSync(file, text, { lang: oxcLang(file), sourceType: 'unambiguous' });
          // A file with syntax errors still yields a partial tree; a half-read file must not look like
          // one whose exports were removed, so it counts as unreadable.
          return result.errors.some((e) => String(e.severity) === 'Error') ? null : (result.program as unknown as AstNode);
        },
  );
  return loading;
}

/** Files the channel reads: JavaScript and TypeScript sources. */
export function isScriptPath(path: string): boolean {
  return /\.(?:[cm]?[jt]s|[jt]sx)$/.test(path);
}
