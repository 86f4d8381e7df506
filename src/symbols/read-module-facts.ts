import { annotation, child, children, compact, lineLocator, nameOf } from './ast-text.js';
import type { AstNode } from './load-parser.js';
import type { Declaration, DeclarationKind, ImportBinding, MemberShape, ModuleFacts, ParamShape, ReExport, Signature } from './symbol-types.js';

/**
 * What one file version declares at top level (exported or not), re-exports and imports — ES
 * modules and the CommonJS forms real JavaScript repositories use (`module.exports = …`,
 * `exports.x = …`, `const { a } = require('./m')`). Only the top level: a symbol another module
 * can import is declared there.
 */
export function readModuleFacts(program: AstNode, text: string): ModuleFacts {
  const lineOf = lineLocator(text);
  const local = new Map<string, Declaration>();
  const exported: Declaration[] = [];
  const aliases: [exportedName: string, localName: string][] = [];
  const reExports: ReExport[] = [];
  const imports: ImportBinding[] = [];

  const declare = (node: AstNode, exportedAs: string): void => {
    for (const found of declarationsOf(node, text, lineOf)) {
      if (found.local !== '') addLocal(local, found);
      exported.push({ ...found, name: exportedAs, exported: true });
    }
  };

  for (const statement of children(program, 'body')) {
    switch (statement.type) {
      case 'ImportDeclaration':
        imports.push(...importBindings(statement));
        break;
      case 'ExportNamedDeclaration': {
        const declaration = child(statement, 'declaration');
        const source = nameOf(child(statement, 'source'));
        if (declaration) {
          for (const found of declarationsOf(declaration, text, lineOf)) {
            addLocal(local, found);
            exported.push({ ...found, exported: true });
          }
        }
        for (const specifier of children(statement, 'specifiers')) {
          const inner = nameOf(child(specifier, 'local'));
          const outer = nameOf(child(specifier, 'exported'));
          if (inner === null || outer === null) continue;
          if (source !== null) reExports.push({ name: outer, imported: inner, source });
          else aliases.push([outer, inner]);
        }
        break;
      }
      case 'ExportDefaultDeclaration': {
        const declaration = child(statement, 'declaration');
        if (!declaration) break;
        if (declaration.type === 'Identifier') aliases.push(['default', declaration.name as string]);
        else declare(declaration, 'default');
        break;
      }
      case 'TSExportAssignment': {
        const expression = child(statement, 'expression');
        if (expression?.type === 'Identifier') aliases.push(['default', expression.name as string]);
        else if (expression) declare(expression, 'default');
        break;
      }
      case 'ExportAllDeclaration': {
        const source = nameOf(child(statement, 'source'));
        const as = nameOf(child(statement, 'exported'));
        if (source !== null) reExports.push({ name: as ?? '*', imported: '*', source });
        break;
      }
      case 'VariableDeclaration':
        imports.push(...requireBindings(statement));
        for (const found of declarationsOf(statement, text, lineOf)) addLocal(local, found);
        break;
      case 'ExpressionStatement':
        commonJsExports(child(statement, 'expression'), text, lineOf, exported, aliases);
        break;
      default:
        for (const found of declarationsOf(statement, text, lineOf)) addLocal(local, found);
    }
  }
  for (const [name, localName] of aliases) {
    const target = local.get(localName);
    if (target) exported.push({ ...target, name, exported: true });
    else if (imports.some((binding) => binding.local === localName)) {
      const binding = imports.find((b) => b.local === localName)!;
      reExports.push({ name, imported: binding.imported === '*' ? '*' : binding.imported, source: binding.source });
    }
  }
  const exportedLocals = new Set(exported.map((d) => d.local));
  const declarations = [...mergeByName(exported), ...[...local.values()].filter((d) => !exportedLocals.has(d.local))];
  return { declarations, reExports, imports };
}

/** Overloads export one name several times: one declaration (the first signature), all texts. */
function mergeByName(list: readonly Declaration[]): Declaration[] {
  const byName = new Map<string, Declaration>();
  for (const d of list) {
    const previous = byName.get(d.name);
    byName.set(d.name, previous ? { ...previous, text: `${previous.text}|${d.text}` } : d);
  }
  return [...byName.values()];
}

/** TypeScript overloads and declaration merging repeat a name: one declaration, all texts. */
function addLocal(local: Map<string, Declaration>, found: Declaration): void {
  const previous = local.get(found.local);
  local.set(found.local, previous ? { ...previous, text: `${previous.text}|${found.text}` } : found);
}

function importBindings(statement: AstNode): ImportBinding[] {
  const source = nameOf(child(statement, 'source'));
  if (source === null) return [];
  return children(statement, 'specifiers').flatMap((specifier): ImportBinding[] => {
    const localName = nameOf(child(specifier, 'local'));
    if (localName === null) return [];
    if (specifier.type === 'ImportDefaultSpecifier') return [{ local: localName, source, imported: 'default' }];
    if (specifier.type === 'ImportNamespaceSpecifier') return [{ local: localName, source, imported: '*' }];
    const imported = nameOf(child(specifier, 'imported'));
    return imported === null ? [] : [{ local: localName, source, imported }];
  });
}

/** `require('x')` → 'x'; `require('x').y` → ['x', 'y']. */
function requireOf(node: AstNode | null): { source: string; member: string | null } | null {
  if (!node) return null;
  if (node.type === 'MemberExpression' && !node.computed) {
    const inner = requireOf(child(node, 'object'));
    const member = nameOf(child(node, 'property'));
    return inner && inner.member === null && member !== null ? { source: inner.source, member } : null;
  }
  if (node.type !== 'CallExpression' || nameOf(child(node, 'callee')) !== 'require') return null;
  const [first] = children(node, 'arguments');
  const source = first && first.type === 'Literal' ? nameOf(first) : null;
  return source === null ? null : { source, member: null };
}

function requireBindings(statement: AstNode): ImportBinding[] {
  return children(statement, 'declarations').flatMap((declarator): ImportBinding[] => {
    const required = requireOf(child(declarator, 'init'));
    const id = child(declarator, 'id');
    if (!required || !id) return [];
    if (id.type === 'Identifier') {
      return [
        required.member === null
          ? { local: id.name as string, source: required.source, imported: '*', commonjs: true }
          : { local: id.name as string, source: required.source, imported: required.member },
      ];
    }
    if (id.type !== 'ObjectPattern' || required.member !== null) return [];
    return children(id, 'properties').flatMap((property): ImportBinding[] => {
      const key = property.computed ? null : nameOf(child(property, 'key'));
      let value = child(property, 'value');
      if (value?.type === 'AssignmentPattern') value = child(value, 'left');
      const localName = nameOf(value);
      return key !== null && localName !== null ? [{ local: localName, source: required.source, imported: key }] : [];
    });
  });
}

/** `module.exports = …`, `exports = module.exports = …`, `exports.x = …`, `module.exports.x = …`. */
function commonJsExports(
  expression: AstNode | null,
  text: string,
  lineOf: (offset: number) => number,
  exported: Declaration[],
  aliases: [string, string][],
): void {
  if (expression?.type !== 'AssignmentExpression' || expression.operator !== '=') return;
  const target = exportTarget(child(expression, 'left'));
  let right = child(expression, 'right');
  // `exports = module.exports = createApplication`: the value is the innermost right-hand side.
  while (right?.type === 'AssignmentExpression') right = child(right, 'right');
  if (target === null || !right) return;
  if (target === 'default' && right.type === 'ObjectExpression') {
    for (const property of children(right, 'properties')) {
      const key = property.computed ? null : nameOf(child(property, 'key'));
      const value = child(property, 'value');
      if (key === null || !value) continue;
      if (value.type === 'Identifier') aliases.push([key, value.name as string]);
      else exported.push(valueDeclaration(key, value, property, text, lineOf));
    }
    return;
  }
  if (right.type === 'Identifier') aliases.push([target, right.name as string]);
  else exported.push(valueDeclaration(target, right, right, text, lineOf));
}

function exportTarget(left: AstNode | null): string | null {
  if (!left) return null;
  if (left.type === 'Identifier' && left.name === 'exports') return 'default';
  if (left.type !== 'MemberExpression' || left.computed) return null;
  const object = child(left, 'object');
  const property = nameOf(child(left, 'property'));
  if (property === null || !object) return null;
  if (object.type === 'Identifier' && object.name === 'module' && property === 'exports') return 'default';
  if (object.type === 'Identifier' && object.name === 'exports') return property;
  if (object.type === 'MemberExpression' && nameOf(child(object, 'object')) === 'module' && nameOf(child(object, 'property')) === 'exports') return property;
  return null;
}

function valueDeclaration(name: string, value: AstNode, at: AstNode, text: string, lineOf: (offset: number) => number): Declaration {
  const kind: DeclarationKind = isFunction(value) ? 'function' : value.type === 'ClassExpression' ? 'class' : 'variable';
  return {
    name,
    local: name,
    exported: true,
    kind,
    line: lineOf(at.start),
    signature: signatureOfValue(value, null, text),
    text: withoutName(text, value, child(value, 'id')),
  };
}

function isFunction(node: AstNode | null): boolean {
  return (
    node !== null &&
    (node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression' || node.type === 'TSDeclareFunction')
  );
}

/** Compact text of `node` with its name cut out, so a rename alone compares equal. */
function withoutName(text: string, node: AstNode, id: AstNode | null): string {
  if (!id || id.start < node.start || id.end > node.end) return compact(text, node) ?? '';
  const cut = text.slice(node.start, id.start) + text.slice(id.end, node.end);
  return compact(cut, { type: 'Text', start: 0, end: cut.length }) ?? '';
}

function declarationsOf(node: AstNode, text: string, lineOf: (offset: number) => number): Declaration[] {
  const id = child(node, 'id');
  const base = (kind: DeclarationKind, signature: Signature): Declaration[] => {
    const name = nameOf(id) ?? '';
    return [{ name, local: name, exported: false, kind, line: lineOf(node.start), signature, text: withoutName(text, node, id) }];
  };
  switch (node.type) {
    case 'FunctionDeclaration':
    case 'TSDeclareFunction':
    case 'FunctionExpression':
    case 'ArrowFunctionExpression':
      return base('function', functionSignature(node, text));
    case 'ClassDeclaration':
    case 'ClassExpression':
      return base('class', classSignature(node, text));
    case 'TSInterfaceDeclaration':
      return base('interface', { members: typeMembers(children(child(node, 'body')!, 'body'), text) });
    case 'TSTypeAliasDeclaration': {
      const type = child(node, 'typeAnnotation');
      return base('type', type?.type === 'TSTypeLiteral' ? { members: typeMembers(children(type, 'members'), text) } : { type: compact(text, type) });
    }
    case 'TSEnumDeclaration': {
      const body = child(node, 'body') ?? node;
      return base('enum', {
        members: children(body, 'members').map((m) => ({ name: nameOf(child(m, 'id')) ?? '?', optional: false, type: compact(text, child(m, 'initializer')) })),
      });
    }
    case 'TSModuleDeclaration':
      return base('namespace', {});
    case 'VariableDeclaration':
      return children(node, 'declarations').flatMap((declarator): Declaration[] => {
        const target = child(declarator, 'id');
        const name = nameOf(target);
        if (name === null || requireOf(child(declarator, 'init'))) return [];
        const init = child(declarator, 'init');
        const kind: DeclarationKind = isFunction(init) ? 'function' : init?.type === 'ClassExpression' ? 'class' : 'variable';
        return [
          {
            name,
            local: name,
            exported: false,
            kind,
            line: lineOf(declarator.start),
            signature: signatureOfValue(init, annotation(child(target!, 'typeAnnotation')), text),
            text: withoutName(text, declarator, target),
          },
        ];
      });
    default:
      // `export default <expression>`: a value without a name.
      return node.type.endsWith('Expression') || node.type === 'Literal'
        ? [
            {
              name: '',
              local: '',
              exported: false,
              kind: 'variable',
              line: lineOf(node.start),
              signature: signatureOfValue(node, null, text),
              text: compact(text, node) ?? '',
            },
          ]
        : [];
  }
}

function signatureOfValue(value: AstNode | null, declared: AstNode | null, text: string): Signature {
  if (declared) return { type: compact(text, declared) };
  if (!value) return { type: null };
  if (isFunction(value)) return functionSignature(value, text);
  if (value.type === 'ClassExpression') return classSignature(value, text);
  if (value.type === 'ObjectExpression') {
    return {
      members: children(value, 'properties').flatMap((p) =>
        p.type === 'Property' && !p.computed && nameOf(child(p, 'key')) !== null ? [{ name: nameOf(child(p, 'key'))!, optional: false, type: null }] : [],
      ),
    };
  }
  return { type: null };
}

function functionSignature(node: AstNode, text: string): Signature {
  return { params: params(children(node, 'params'), text), returns: compact(text, annotation(child(node, 'returnType'))), async: node.async === true };
}

function params(list: readonly AstNode[], text: string): ParamShape[] {
  return list.flatMap((param): ParamShape[] => {
    let node = param.type === 'TSParameterProperty' ? (child(param, 'parameter') ?? param) : param;
    if (node.type === 'Identifier' && node.name === 'this') return [];
    const rest = node.type === 'RestElement';
    const withDefault = node.type === 'AssignmentPattern';
    const type = compact(text, annotation(child(node, 'typeAnnotation')) ?? (withDefault ? annotation(child(child(node, 'left')!, 'typeAnnotation')) : null));
    if (rest) node = child(node, 'argument') ?? node;
    if (withDefault) node = child(node, 'left') ?? node;
    const name = nameOf(node) ?? compact(text, node)?.replace(/:.*$/, '') ?? '?';
    return [{ name, optional: withDefault || node.optional === true, rest, type }];
  });
}

function classSignature(node: AstNode, text: string): Signature {
  const body = child(node, 'body');
  const members: MemberShape[] = [];
  let ctor: ParamShape[] | undefined;
  for (const member of body ? children(body, 'body') : []) {
    const key = child(member, 'key');
    if (!key || key.type === 'PrivateIdentifier' || member.accessibility === 'private' || member.accessibility === 'protected') continue;
    const name = member.computed ? (compact(text, key) ?? '?') : (nameOf(key) ?? '?');
    const value = child(member, 'value');
    if (member.kind === 'constructor' && value) {
      ctor = params(children(value, 'params'), text);
      continue;
    }
    const fn = isFunction(value) ? value : null;
    const type = fn
      ? methodType(params(children(fn, 'params'), text), compact(text, annotation(child(fn, 'returnType'))))
      : compact(text, annotation(child(member, 'typeAnnotation')));
    members.push({ name: `${member.static ? 'static ' : ''}${name}`, optional: member.optional === true, type });
  }
  return { ...(ctor ? { params: ctor } : {}), members };
}

function typeMembers(list: readonly AstNode[], text: string): MemberShape[] {
  return list.map((member) => {
    const key = child(member, 'key');
    const name = key
      ? member.computed
        ? (compact(text, key) ?? '?')
        : (nameOf(key) ?? '?')
      : member.type === 'TSCallSignatureDeclaration'
        ? '()'
        : member.type === 'TSConstructSignatureDeclaration'
          ? 'new()'
          : '[index]';
    const type =
      member.type === 'TSPropertySignature'
        ? compact(text, annotation(child(member, 'typeAnnotation')))
        : (compact(text, member)?.replace(/^[^(<]*/, '') ?? null);
    return { name, optional: member.optional === true, type };
  });
}

/** A method as its callers see it: parameter types and required-ness, not parameter names. */
function methodType(list: readonly ParamShape[], returns: string | null): string {
  return `(${list.map((p) => `${p.rest ? '...' : ''}${p.optional ? '?' : ''}${p.type ?? '_'}`).join(',')})=>${returns ?? '_'}`;
}
