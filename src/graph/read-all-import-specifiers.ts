/**
 * Every import specifier of a file from oxc-parser's syntax tree, for the forms the module record
 * (read-import-specifiers.ts) does not show: `require('…')` anywhere, `import x = require('…')`,
 * type-level `import('…').T`, `import(`…`)` with a plain template, and triple-slash
 * `/// <reference path="…" />` — what dependency-cruiser takes with the TypeScript compiler
 * (extract/tsc/extract-typescript-deps.mjs). Used when no TypeScript is there to give these files
 * to dependency-cruiser: the graph is then complete without one (issue 26, item 2). Imports inside
 * `declare module '…' { }` are left out, as TypeScript leaves them.
 */

interface Node {
  readonly type?: unknown;
  readonly [key: string]: unknown;
}

export interface ParsedFile {
  readonly program: unknown;
  readonly comments: readonly { readonly type: string; readonly value: string }[];
}

const REFERENCE_PATH = /^\/\s*<reference\s+path\s*=\s*["']([^"']+)["']/;

export function readAllImportSpecifiers(parsed: ParsedFile): string[] {
  const specifiers: string[] = [];
  const add = (value: string | undefined): void => {
    if (value !== undefined && value !== '') specifiers.push(value);
  };
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const node = value as Node;
    switch (node.type) {
      case 'TSModuleDeclaration':
        // An ambient module declaration: its imports are not this file's dependencies.
        if ((node.id as Node | undefined)?.type === 'Literal') return;
        break;
      case 'ImportDeclaration':
      case 'ExportNamedDeclaration':
      case 'ExportAllDeclaration':
        add(stringOf(node.source));
        break;
      case 'ImportExpression':
        add(stringOf(node.source));
        break;
      case 'TSImportType':
        add(stringOf(node.source) ?? stringOf((node.argument as Node | undefined)?.literal));
        break;
      case 'TSExternalModuleReference':
        add(stringOf(node.expression));
        break;
      case 'CallExpression': {
        const callee = node.callee as Node | undefined;
        const first = (node.arguments as unknown[] | undefined)?.[0];
        if (callee?.type === 'Identifier' && callee.name === 'require') add(stringOf(first));
        break;
      }
    }
    for (const key in node) {
      if (key === 'type' || key === 'start' || key === 'end') continue;
      const child = node[key];
      if (child !== null && typeof child === 'object') visit(child);
    }
  };
  visit(parsed.program);
  for (const comment of parsed.comments) {
    if (comment.type !== 'Line') continue;
    const path = REFERENCE_PATH.exec(comment.value)?.[1];
    // TypeScript reads a reference path relative to the file, with or without `./`.
    if (path !== undefined) add(path.startsWith('.') || path.startsWith('/') ? path : `./${path}`);
  }
  return [...new Set(specifiers)];
}

/** A string literal, or a template literal without substitutions. */
function stringOf(value: unknown): string | undefined {
  const node = value as Node | null | undefined;
  if (!node) return undefined;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && Array.isArray(node.expressions) && node.expressions.length === 0) {
    const quasi = (node.quasis as { value?: { cooked?: unknown } }[] | undefined)?.[0];
    return typeof quasi?.value?.cooked === 'string' ? quasi.value.cooked : undefined;
  }
  return undefined;
}
