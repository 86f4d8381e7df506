import type { AstNode } from './load-parser.js';

/** Small helpers over an ESTree tree and its source text, shared by the readers. */

export function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

export function child(node: AstNode, key: string): AstNode | null {
  const value = node[key];
  return isNode(value) ? value : null;
}

export function children(node: AstNode, key: string): AstNode[] {
  const value = node[key];
  return Array.isArray(value) ? value.filter(isNode) : [];
}

/** Every direct child node with the key it hangs under. */
export function* entries(node: AstNode): Generator<[string, AstNode]> {
  for (const key of Object.keys(node)) {
    if (key === 'parent') continue;
    const value = node[key];
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) yield [key, item];
    } else if (isNode(value)) yield [key, value];
  }
}

export function nameOf(node: AstNode | null): string | null {
  if (!node) return null;
  if (node.type === 'Identifier' || node.type === 'JSXIdentifier') return node.name as string;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  return null;
}

/** 1-based line of an offset, by binary search over the line starts. */
export function lineLocator(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/** Source text without whitespace or comments: formatting changes compare equal. */
export function compact(text: string, node: AstNode | null): string | null {
  if (!node) return null;
  return text
    .slice(node.start, node.end)
    .replace(/\/\*[\s\S]*?\*\/|(^|[^:])\/\/[^\n]*/g, '$1')
    .replace(/\s+/g, '')
    .replace(/[;,]([}\])>])/g, '$1');
}

/** A type annotation node's type (`: T` without the colon). */
export function annotation(node: AstNode | null): AstNode | null {
  if (!node) return null;
  if (node.type === 'TSTypeAnnotation') return child(node, 'typeAnnotation');
  return node;
}
