import { child, children, entries, lineLocator, nameOf } from './ast-text.js';
import type { AstNode } from './load-parser.js';
import type { UseSite } from './symbol-types.js';

/**
 * The references in a side's changed lines: every identifier read as a value or a type (not a
 * declaration, property key or member name), and `ns.member` when the object is a plain name, so
 * namespace imports and whole `require`s resolve to the member. A call records its argument count.
 * Scopes are not tracked: a local that shadows an import is rare in new code and only matters when
 * the other side changed that very name.
 */
export function readUses(program: AstNode, text: string, inChanged: (line: number) => boolean): UseSite[] {
  const lineOf = lineLocator(text);
  const uses: UseSite[] = [];
  const visit = (node: AstNode, parent: AstNode | null, key: string): void => {
    // Declared names (and destructuring patterns) are not uses; imports are read elsewhere.
    if (node.type === 'ImportDeclaration' || node.type === 'ExportAllDeclaration' || (key === 'id' && node.type !== 'Identifier')) return;
    if (node.type === 'MemberExpression' || node.type === 'JSXMemberExpression') {
      const object = child(node, 'object');
      const property = child(node, 'property');
      const member = node.computed ? null : nameOf(property);
      if (object && (object.type === 'Identifier' || object.type === 'JSXIdentifier') && member !== null) {
        const line = lineOf(object.start);
        if (inChanged(line)) uses.push({ name: object.name as string, member, line, ...callArgs(node, parent, key) });
      }
    }
    if ((node.type === 'Identifier' || node.type === 'JSXIdentifier') && isReference(node, parent, key)) {
      const line = lineOf(node.start);
      if (inChanged(line)) uses.push({ name: node.name as string, line, ...callArgs(node, parent, key) });
    }
    for (const [childKey, next] of entries(node)) visit(next, node, childKey);
  };
  // Only top-level statements that hold a changed line are walked: the walk is most of the cost on
  // a large file (a 100 kB module took ~0.4 s on a loaded machine), and no use outside them counts.
  const touched = (node: AstNode): boolean => {
    for (let line = lineOf(node.start), last = lineOf(node.end); line <= last; line++) if (inChanged(line)) return true;
    return false;
  };
  for (const [key, statement] of entries(program)) if (touched(statement)) visit(statement, program, key);
  return uses;
}

function callArgs(_node: AstNode, parent: AstNode | null, key: string): { args?: number | null } {
  if (!parent || key !== 'callee' || (parent.type !== 'CallExpression' && parent.type !== 'NewExpression')) return {};
  const args = children(parent, 'arguments');
  return { args: args.some((a) => a.type === 'SpreadElement') ? null : args.length };
}

const DECLARING_KEYS = new Set(['id', 'params', 'label', 'local', 'exported', 'imported', 'typeParameters']);

function isReference(node: AstNode, parent: AstNode | null, key: string): boolean {
  if (!parent) return false;
  if (node.type === 'JSXIdentifier') {
    // <Foo/> names a component; <div/> is an element, and attribute names are not references.
    return (parent.type === 'JSXOpeningElement' || parent.type === 'JSXClosingElement') && key === 'name' && /^[A-Z]/.test(node.name as string);
  }
  if (DECLARING_KEYS.has(key)) return false;
  if ((parent.type === 'MemberExpression' || parent.type === 'TSQualifiedName') && (key === 'property' || key === 'right')) return parent.computed === true;
  if (key === 'key' && parent.computed !== true) return false;
  if (parent.type === 'ExportSpecifier') return false;
  return true;
}
