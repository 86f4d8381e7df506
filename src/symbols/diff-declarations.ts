import type { Declaration, DeclarationChange, ModuleFacts, ParamShape, Signature } from './symbol-types.js';

/**
 * What one side did to each top-level declaration of a file: removed, renamed, or changed the part
 * callers depend on (parameters and their required-ness, return type, members of exported types).
 * Changes a caller cannot notice are left out: the body, a new optional parameter, a new member of
 * a class or object, a declaration moved behind a re-export. Data in, data out.
 */
export function diffModules(before: ModuleFacts, after: ModuleFacts): DeclarationChange[] {
  const afterByKey = byKey(after.declarations);
  const beforeByKey = byKey(before.declarations);
  const reExported = new Set(after.reExports.map((r) => r.name));
  // `export * from './x'` may now provide any name: a name that disappeared may have moved there.
  const starAfter = after.reExports.some((r) => r.name === '*');
  const added = after.declarations.filter((d) => !beforeByKey.has(keyOf(d)));
  const changes: DeclarationChange[] = [];

  for (const old of before.declarations) {
    const now = afterByKey.get(keyOf(old));
    if (now) {
      const details = compareDeclarations(old, now);
      if (details.length > 0) changes.push({ ...changeBase(old, now), kind: 'signature', details, ...callShape(now.signature) });
      continue;
    }
    if (old.exported && (reExported.has(old.name) || starAfter)) continue;
    const stillLocal = after.declarations.some((d) => d.local === old.local && old.local !== '');
    const renamed = added.find((d) => d.kind === old.kind && d.exported === old.exported && d.text === old.text && d.name !== old.name);
    changes.push({
      kind: renamed ? 'renamed' : 'removed',
      name: old.name,
      // A declaration that lost only its `export` still serves the code of its own file.
      local: stillLocal ? '' : old.local,
      exported: old.exported,
      declarationKind: old.kind,
      line: renamed ? renamed.line : old.line,
      details: [],
      ...(renamed ? { renamedTo: renamed.name } : {}),
    });
  }
  for (const old of before.reExports) {
    if (old.name === '*' || reExported.has(old.name) || afterByKey.has(`e:${old.name}`) || starAfter) continue;
    changes.push({ kind: 'removed', name: old.name, local: '', exported: true, declarationKind: 'reexport', line: 0, details: [] });
  }
  return changes;
}

function keyOf(declaration: Declaration): string {
  return declaration.exported ? `e:${declaration.name}` : `l:${declaration.local}`;
}

function byKey(list: readonly Declaration[]): Map<string, Declaration> {
  const map = new Map<string, Declaration>();
  for (const declaration of list) if (!map.has(keyOf(declaration))) map.set(keyOf(declaration), declaration);
  return map;
}

function changeBase(_old: Declaration, now: Declaration): Omit<DeclarationChange, 'kind' | 'details'> {
  return { name: now.name, local: now.local, exported: now.exported, declarationKind: now.kind, line: now.line };
}

function callShape(signature: Signature): Pick<DeclarationChange, 'requiredAfter' | 'maxAfter'> {
  if (!signature.params) return {};
  const { required, max } = arity(signature.params);
  return { requiredAfter: required, maxAfter: max };
}

function arity(list: readonly ParamShape[]): { required: number; max: number } {
  // A parameter before a required one is required too, whatever its own marker says.
  let required = 0;
  list.forEach((p, index) => {
    if (!p.optional && !p.rest) required = index + 1;
  });
  return { required, max: list.some((p) => p.rest) ? Number.POSITIVE_INFINITY : list.length };
}

/** The caller-visible differences, one clause each; empty when only the body changed. */
function compareDeclarations(old: Declaration, now: Declaration): string[] {
  if (old.text === now.text) return [];
  if (old.kind !== now.kind) return old.kind === 'reexport' || now.kind === 'reexport' ? [] : [`was a ${old.kind}, now a ${now.kind}`];
  return compareSignatures(old.signature, now.signature, now.kind === 'interface' || now.kind === 'type');
}

function compareSignatures(old: Signature, now: Signature, shapeOfData: boolean): string[] {
  const details: string[] = [];
  if (old.params && now.params) {
    const [before, after] = [arity(old.params), arity(now.params)];
    if (after.required > before.required) details.push(`${before.required} → ${after.required} required parameter${after.required === 1 ? '' : 's'}`);
    if (after.max < before.max) details.push(`${show(before.max)} → ${after.max} parameters`);
    for (let i = 0; i < Math.min(old.params.length, now.params.length); i++) {
      const [x, y] = [old.params[i]!, now.params[i]!];
      if (x.type !== null && y.type !== null && x.type !== y.type) details.push(`parameter \`${y.name}\`: ${short(x.type)} → ${short(y.type)}`);
    }
  }
  if (old.returns && now.returns && old.returns !== now.returns) details.push(`return type ${short(old.returns)} → ${short(now.returns)}`);
  else if (!old.returns && !now.returns && old.async !== undefined && now.async !== undefined && old.async !== now.async)
    details.push(now.async ? 'now async (returns a Promise)' : 'no longer async');
  if (old.type && now.type && old.type !== now.type) details.push(`type ${short(old.type)} → ${short(now.type)}`);
  if (old.members && now.members) {
    const after = new Map(now.members.map((m) => [m.name, m]));
    const before = new Map(old.members.map((m) => [m.name, m]));
    for (const member of old.members) {
      const next = after.get(member.name);
      if (!next) details.push(`member \`${member.name}\` removed`);
      else if (member.optional && !next.optional) details.push(`member \`${member.name}\` now required`);
      else if (member.type !== null && next.type !== null && member.type !== next.type)
        details.push(`member \`${member.name}\`: ${short(member.type)} → ${short(next.type)}`);
    }
    // Whoever builds a value of an interface or type must now supply a new required member.
    if (shapeOfData) for (const member of now.members) if (!before.has(member.name) && !member.optional) details.push(`new required member \`${member.name}\``);
  }
  return details;
}

function show(n: number): string {
  return Number.isFinite(n) ? String(n) : 'any number of';
}

function short(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
