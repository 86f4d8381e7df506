import { describe, expect, it } from 'vitest';
import { diffModules } from '../../../src/symbols/diff-declarations.js';
import { loadParser } from '../../../src/symbols/load-parser.js';
import { readModuleFacts } from '../../../src/symbols/read-module-facts.js';
import type { ModuleFacts } from '../../../src/symbols/symbol-types.js';

async function facts(file: string, text: string): Promise<ModuleFacts> {
  const parse = await loadParser();
  if (typeof parse === 'string') throw new Error(parse);
  const program = parse(file, text);
  if (!program) throw new Error('does not parse');
  return readModuleFacts(program, text);
}

async function diff(file: string, before: string, after: string) {
  return diffModules(await facts(file, before), await facts(file, after));
}

describe('diffModules: what a side did to each declaration', () => {
  it('a body-only change is not a change', async () => {
    expect(
      await diff(
        'a.ts',
        'export function f(a: number): number {\n  return a;\n}\n',
        'export function f(a: number): number {\n  // doubled\n  return a * 2;\n}\n',
      ),
    ).toEqual([]);
  });

  it('formatting and a new optional parameter are not changes callers notice', async () => {
    expect(await diff('a.ts', 'export function f(a: number) { return a }', 'export function f(\n  a: number,\n  b?: string,\n) { return a }')).toEqual([]);
  });

  it('a new required parameter: 1 → 2 required, with the new arity for call sites', async () => {
    const [change] = await diff(
      'a.ts',
      'export function createSession(user: string) { return user }\n',
      '\nexport function createSession(user: string, ttl: number) { return user }\n',
    );
    expect(change).toMatchObject({ kind: 'signature', name: 'createSession', line: 2, details: ['1 → 2 required parameters'], requiredAfter: 2, maxAfter: 2 });
  });

  it('a parameter that lost its default becomes required', async () => {
    const [change] = await diff('a.js', 'export const f = (a, b = 1) => a + b;', 'export const f = (a, b) => a + b;');
    expect(change?.details).toEqual(['1 → 2 required parameters']);
  });

  it('return type, parameter type and async changes', async () => {
    const changes = await diff(
      'a.ts',
      'export function f(a: number): string { return "" }\nexport function g() { return 1 }',
      'export function f(a: string): number { return 1 }\nexport async function g() { return 1 }',
    );
    expect(changes.find((c) => c.name === 'f')?.details).toEqual(['parameter `a`: number → string', 'return type string → number']);
    expect(changes.find((c) => c.name === 'g')?.details).toEqual(['now async (returns a Promise)']);
  });

  it('interface members: removed, now required, retyped, and a new required member', async () => {
    const [change] = await diff(
      'a.ts',
      'export interface S { id: string; ttl?: number; user: User }',
      'export interface S { ttl: number; user: Account; scope: string[] }',
    );
    expect(change).toMatchObject({ kind: 'signature', declarationKind: 'interface' });
    expect(change?.details).toEqual(['member `id` removed', 'member `ttl` now required', 'member `user`: User → Account', 'new required member `scope`']);
  });

  it('a new class method or object property breaks no caller', async () => {
    expect(await diff('a.js', 'export class K { m() {} }', 'export class K { m() {} n() {} }')).toEqual([]);
  });

  it('removed and renamed exports; a rename keeps the declaration text', async () => {
    const changes = await diff(
      'a.ts',
      'export function old(a: number) { return a }\nexport function gone() {}\n',
      'export function renamed(a: number) { return a }\n',
    );
    expect(changes).toEqual([
      expect.objectContaining({ kind: 'renamed', name: 'old', renamedTo: 'renamed', line: 1 }),
      expect.objectContaining({ kind: 'removed', name: 'gone', line: 2 }),
    ]);
  });

  it('an export moved behind a re-export is not removed', async () => {
    expect(await diff('index.ts', 'export function f() {}', "export { f } from './f';")).toEqual([]);
    expect(await diff('index.ts', 'export function f() {}', "export * from './f';")).toEqual([]);
  });

  it('an export that lost only `export` is removed for importers, not for its own file', async () => {
    const [change] = await diff('a.ts', 'export function f() {}', 'function f() {}');
    expect(change).toMatchObject({ kind: 'removed', name: 'f', exported: true, local: '' });
  });

  it('CommonJS: exports.x, module.exports = { … } and module.exports = fn', async () => {
    const before = 'function cast(v, path) { return v }\nexports.a = function (x) {};\nmodule.exports.b = 1;\n';
    const after = 'function cast(v, path, opts) { return v }\nexports.a = function (x, y) {};\n';
    const changes = await diff('m.js', before, after);
    expect(changes.map((c) => [c.kind, c.name])).toEqual([
      ['signature', 'a'],
      ['removed', 'b'],
      ['signature', 'cast'],
    ]);
    const whole = await diff('c.js', 'module.exports = function cast(v) {};', 'module.exports = function cast(v, schema) {};');
    expect(whole).toEqual([expect.objectContaining({ kind: 'signature', name: 'default', details: ['1 → 2 required parameters'] })]);
    const object = await diff(
      'o.js',
      'function a() {}\nfunction b() {}\nmodule.exports = { a, b };',
      'function a() {}\nfunction b() {}\nmodule.exports = { a };',
    );
    expect(object).toEqual([expect.objectContaining({ kind: 'removed', name: 'b', exported: true, local: '' })]);
  });

  it('overloads: a change in the implementation body is not a change of the exported signature', async () => {
    const overloads = (body: string) =>
      `export function partial(a: string): string;\nexport function partial(a: number): number;\nexport function partial(a: unknown) {\n  ${body}\n}\n`;
    expect(await diff('a.ts', overloads('return a;'), overloads('void 0;\n  return a;'))).toEqual([]);
  });

  it('a file that no longer parses yields no facts to compare', async () => {
    const parse = await loadParser();
    if (typeof parse === 'string') throw new Error(parse);
    expect(parse('a.ts', 'export function f( {')).toBeNull();
  });
});
