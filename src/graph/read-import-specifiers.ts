/**
 * The import specifiers of one TypeScript-compatible file, from oxc-parser's module record
 * (computed natively: no syntax tree crosses into JavaScript), or `undefined` when the file may
 * hold a dependency the record does not show. dependency-cruiser 17.4.3 with
 * `tsPreCompilationDeps` reads these files with the TypeScript compiler
 * (extract/tsc/extract-typescript-deps.mjs) and takes: top-level `import … from`, `export … from`
 * (type-only included), `import x = require()`, triple-slash references, and anywhere in the file
 * `require('…')`, `import('…')` and type-level `import('…')`. The record has the first two and
 * dynamic `import()`; the rest is ruled out on the text, conservatively (a mention in a comment
 * is enough to hand the file to dependency-cruiser).
 */

export type ParseModule = (file: string, text: string) => ModuleRecord | undefined;

export interface ModuleRecord {
  readonly staticImports: readonly { readonly moduleRequest: { readonly value: string } }[];
  readonly staticExports: readonly { readonly entries: readonly { readonly moduleRequest: { readonly value: string } | null }[] }[];
  readonly dynamicImports: readonly { readonly start: number; readonly moduleRequest: { readonly start: number; readonly end: number } }[];
}

/**
 * Forms the record does not cover: CommonJS and `import x = require()`, triple-slash directives,
 * imports nested in `declare module` / `declare global` blocks (TypeScript does not take those),
 * and `export {} from './x'` (no entry, so no export record; test graph-direct-read).
 */
const NOT_IN_RECORD = /\brequire\b|\/\/\/\s*<reference|\bdeclare\s+(?:module|global)\b|\bexport\s+(?:type\s+)?\{\s*\}\s*from\b/;
const IMPORT_CALL = /\bimport\s*\(/g;
const PLAIN_STRING = /^(['"])([^'"\\\n]*)\1$/;
/** Files dependency-cruiser reads with the TypeScript compiler (extract/helpers.mjs, minus .vue). */
const TYPESCRIPT_COMPATIBLE = /\.(?:[cm]?ts|tsx|[cm]?js)$/;

export function isTypescriptCompatible(path: string): boolean {
  return TYPESCRIPT_COMPATIBLE.test(path);
}

export function readImportSpecifiers(file: string, text: string, parse: ParseModule): string[] | undefined {
  if (NOT_IN_RECORD.test(text)) return undefined;
  const record = parse(file, text);
  if (!record) return undefined;
  const specifiers: string[] = [];
  for (const statement of record.staticImports) specifiers.push(statement.moduleRequest.value);
  for (const statement of record.staticExports) {
    let source: string | undefined;
    for (const entry of statement.entries) source ??= entry.moduleRequest?.value;
    if (source !== undefined) specifiers.push(source);
  }
  // Every `import(` in the text must be a dynamic import with a plain string: the record has no
  // type-level `import('./x').T`, and a template literal or expression is not modelled.
  const dynamicStarts = new Set<number>();
  for (const call of record.dynamicImports) {
    const literal = PLAIN_STRING.exec(text.slice(call.moduleRequest.start, call.moduleRequest.end));
    if (!literal) return undefined;
    specifiers.push(literal[2]!);
    dynamicStarts.add(call.start);
  }
  for (const match of text.matchAll(IMPORT_CALL)) if (!dynamicStarts.has(match.index)) return undefined;
  return specifiers;
}
