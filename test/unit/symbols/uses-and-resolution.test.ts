import { describe, expect, it } from 'vitest';
import { addedLines } from '../../../src/symbols/added-lines.js';
import { findCollisions } from '../../../src/symbols/find-collisions.js';
import { loadParser } from '../../../src/symbols/load-parser.js';
import { readModuleFacts } from '../../../src/symbols/read-module-facts.js';
import { readUses } from '../../../src/symbols/read-uses.js';
import { resolutionProbes, resolveRelativeImport } from '../../../src/source/resolve-relative-import.js';
import { resolveImport, type ResolveContext } from '../../../src/symbols/resolve-import.js';
import type { ModuleFacts } from '../../../src/symbols/symbol-types.js';

async function program(file: string, text: string) {
  const parse = await loadParser();
  if (typeof parse === 'string') throw new Error(parse);
  const tree = parse(file, text);
  if (!tree) throw new Error('does not parse');
  return tree;
}

async function facts(file: string, text: string): Promise<ModuleFacts> {
  return readModuleFacts(await program(file, text), text);
}

describe('imports a side binds', () => {
  it('named, default, namespace, re-exports and CommonJS require forms', async () => {
    const text = [
      "import def, { a as b, type T } from './m';",
      "import * as ns from '../n';",
      "const { x, y: z } = require('./c');",
      "const whole = require('./w');",
      "const member = require('./p').member;",
      "export { q as r } from './q';",
      "export * from './star';",
    ].join('\n');
    const found = await facts('src/f.ts', text);
    expect(found.imports).toEqual([
      { local: 'def', source: './m', imported: 'default' },
      { local: 'b', source: './m', imported: 'a' },
      { local: 'T', source: './m', imported: 'T' },
      { local: 'ns', source: '../n', imported: '*' },
      { local: 'x', source: './c', imported: 'x' },
      { local: 'z', source: './c', imported: 'y' },
      { local: 'whole', source: './w', imported: '*', commonjs: true },
      { local: 'member', source: './p', imported: 'member' },
    ]);
    expect(found.reExports).toEqual([
      { name: 'r', imported: 'q', source: './q' },
      { name: '*', imported: '*', source: './star' },
    ]);
  });
});

describe('readUses: references in changed lines only', () => {
  it('calls with their argument count, namespace members, types and JSX components; not declarations or keys', async () => {
    const text = [
      "import { createSession, Opts } from './session';", // 1
      "import * as auth from './auth';", // 2
      'const old = createSession(1);', // 3 unchanged
      'export function admin(o: Opts) {', // 4
      '  const s = createSession(o.user);', // 5
      '  auth.login(s, 2, 3);', // 6
      '  return { createSession: 1, key: s.createSession };', // 7
      '}', // 8
      'const el = <Panel value={old} />;', // 9
    ].join('\n');
    const tree = await program('src/admin.tsx', text);
    const uses = readUses(tree, text, (line) => line >= 4);
    expect(uses).toContainEqual({ name: 'createSession', line: 5, args: 1 });
    expect(uses).toContainEqual({ name: 'auth', member: 'login', line: 6, args: 3 });
    expect(uses).toContainEqual({ name: 'Opts', line: 4 });
    expect(uses).toContainEqual({ name: 'Panel', line: 9 });
    expect(uses.filter((u) => u.name === 'createSession').map((u) => u.line)).toEqual([5]);
    expect(uses.some((u) => u.name === 'admin' || (u.name === 's' && u.line === 5))).toBe(false);
  });

  it('walking only the statements that hold a changed line finds exactly the uses a full walk finds on those lines', async () => {
    const text = [
      "import { a, b } from './m';", // 1
      'export function one() {', // 2
      '  return a(1);', // 3
      '}', // 4
      'export const two = () =>', // 5
      '  b(', // 6
      '    a(2),', // 7
      '  );', // 8
      'a(3); b(4);', // 9
    ].join('\n');
    const tree = await program('src/x.ts', text);
    const all = readUses(tree, text, () => true);
    for (const changed of [[3], [7], [6, 9], [1, 4], []]) {
      const some = readUses(tree, text, (line) => changed.includes(line));
      expect(some).toEqual(all.filter((u) => changed.includes(u.line)));
    }
    expect(readUses(tree, text, (line) => line === 7)).toEqual([{ name: 'a', line: 7, args: 1 }]);
  });
});

describe('addedLines', () => {
  it('marks inserted and changed lines of the new version', () => {
    expect([...addedLines('a\nb\nc\n', 'a\nX\nb\nc changed\n')].sort()).toEqual([2, 4]);
    expect([...addedLines(null, 'a\nb')]).toEqual([1, 2]);
    expect([...addedLines('a\nb', 'a\nb')]).toEqual([]);
  });

  it('a long file edited near both ends: the untouched middle is not added (as git diff sees it)', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i}`);
    const edited = [...lines];
    edited.splice(10, 1, 'changed top');
    edited.splice(4990, 0, 'inserted bottom');
    edited.splice(2500, 1);
    expect([...addedLines(lines.join('\n'), edited.join('\n'))]).toEqual([11, 4990]);
  });

  it('agrees with a moved block: the lines at the new place are added', () => {
    expect([...addedLines('a\nb\nc\nd\ne', 'a\nd\nb\nc\ne')]).toEqual([2]);
  });
});

describe('resolveImport', () => {
  const files: Record<string, string> = {
    'src/index.ts': "export * from './auth/index.js';\nexport { helper as util } from './helper';",
    'src/auth/index.ts': "export { createSession } from './session';",
    'src/core.ts': "export * as util from './util/index.js';\nimport * as fmt from './format';\nexport { fmt as text };",
    'src/util/index.ts': "export * from './clone';",
  };
  const context = (changed: string[], existing: string[], packages: Record<string, string> = {}, unresolved: string[] = []): ResolveContext => ({
    changedFiles: new Set(changed),
    existing: async (paths) => new Set(paths.filter((p) => existing.includes(p))),
    factsOf: async (path) => (files[path] === undefined ? null : facts(path, files[path]!)),
    resolveNonRelative: async (_importer, specifier) =>
      packages[specifier] !== undefined
        ? { kind: 'file', path: packages[specifier]! }
        : specifier.startsWith('@org/')
          ? { kind: 'unresolved', why: 'no such package' }
          : { kind: 'external' },
    onUnresolved: (specifier, why) => unresolved.push(`${specifier}: ${why}`),
  });

  it('candidates follow TypeScript and Node: ./x.js names x.ts, a folder names its index', () => {
    const tree = (files: string[]) => ({ kind: (path: string) => (files.includes(path) ? ('file' as const) : ('none' as const)) });
    expect(resolveRelativeImport(tree(['src/x.ts', 'src/x.tsx']), 'src/a', '../x.js')).toBe('src/x.ts');
    expect(resolveRelativeImport(tree(['src/x.tsx']), 'src/a', '../x.js')).toBe('src/x.tsx');
    expect(resolveRelativeImport(tree(['src/a/dir/index.ts']), 'src/a', './dir')).toBe('src/a/dir/index.ts');
    expect(resolutionProbes('', '../outside')).toEqual([]);
    expect(resolutionProbes('', 'react')).toEqual([]);
  });

  it('a direct import of a changed file', async () => {
    expect(await resolveImport('src/api/admin.ts', '../auth/session', 'createSession', context(['src/auth/session.ts'], ['src/auth/session.ts']))).toEqual({
      file: 'src/auth/session.ts',
      name: 'createSession',
    });
  });

  it('through two barrels (export * and a named re-export), and renamed on the way', async () => {
    const existing = ['src/index.ts', 'src/auth/index.ts', 'src/auth/session.ts', 'src/helper.ts'];
    expect(await resolveImport('src/api/admin.ts', '..', 'createSession', context(['src/auth/session.ts'], existing))).toEqual({
      file: 'src/auth/session.ts',
      name: 'createSession',
    });
    expect(await resolveImport('src/api/admin.ts', '../index', 'util', context(['src/helper.ts'], existing))).toEqual({
      file: 'src/helper.ts',
      name: 'helper',
    });
    expect(await resolveImport('src/api/admin.ts', '../index', 'other', context(['src/helper.ts'], existing))).toBeNull();
  });

  it('a member of a namespace re-export (`export * as util from`, `import * as fmt; export { fmt as text }`)', async () => {
    const existing = ['src/core.ts', 'src/util/index.ts', 'src/util/clone.ts', 'src/format.ts'];
    // util.clone(…) after `import { util } from '../core'`: followed into util/index.ts, then its `export *`.
    expect(await resolveImport('src/api/admin.ts', '../core', 'util', context(['src/util/clone.ts'], existing), 'clone')).toEqual({
      file: 'src/util/clone.ts',
      name: 'clone',
    });
    expect(await resolveImport('src/api/admin.ts', '../core', 'text', context(['src/format.ts'], existing), 'pad')).toEqual({
      file: 'src/format.ts',
      name: 'pad',
    });
    // Without the member (the namespace passed on as a value) nothing is named in the module.
    expect(await resolveImport('src/api/admin.ts', '../core', 'util', context(['src/util/clone.ts'], existing))).toBeNull();
    // A name the barrel does not re-export as a namespace is not followed.
    expect(await resolveImport('src/api/admin.ts', '../core', 'other', context(['src/util/clone.ts'], existing), 'clone')).toBeNull();
  });

  it('a package specifier through the one resolver; one that looks internal but resolves nowhere is told', async () => {
    const packages = { '@org/server': 'packages/server/src/index.ts' };
    expect(await resolveImport('apps/web/page.ts', '@org/server', 'route', context(['packages/server/src/index.ts'], [], packages))).toEqual({
      file: 'packages/server/src/index.ts',
      name: 'route',
    });
    const unresolved: string[] = [];
    expect(await resolveImport('apps/web/page.ts', '@org/client', 'route', context(['packages/server/src/index.ts'], [], packages, unresolved))).toBeNull();
    expect(unresolved).toEqual(['@org/client: no such package']);
    expect(await resolveImport('apps/web/page.ts', 'react', 'route', context(['packages/server/src/index.ts'], [], packages, unresolved))).toBeNull();
    expect(unresolved).toHaveLength(1);
  });
});

describe('findCollisions', () => {
  it('matches exported names across files and local names inside one file; flags calls that no longer fit', () => {
    const changed = new Map([
      [
        's.ts',
        {
          path: 's.ts',
          changes: [
            {
              kind: 'signature' as const,
              name: 'createSession',
              local: 'createSession',
              exported: true,
              declarationKind: 'function' as const,
              line: 3,
              details: ['1 → 2 required parameters'],
              requiredAfter: 2,
              maxAfter: 2,
            },
            { kind: 'removed' as const, name: 'helper', local: 'helper', exported: false, declarationKind: 'function' as const, line: 9, details: [] },
          ],
        },
      ],
    ]);
    const found = findCollisions('ada', 'bob', changed, [
      { file: 'admin.ts', use: { name: 'createSession', line: 4, args: 1 }, target: { file: 's.ts', name: 'createSession', sameFile: false } },
      { file: 'admin.ts', use: { name: 'createSession', line: 8, args: 1 }, target: { file: 's.ts', name: 'createSession', sameFile: false } },
      { file: 's.ts', use: { name: 'helper', line: 20 }, target: { file: 's.ts', name: 'helper', sameFile: true } },
      { file: 'admin.ts', use: { name: 'helper', line: 5 }, target: { file: 's.ts', name: 'helper', sameFile: false } },
    ]);
    expect(found).toEqual([
      {
        symbol: 'createSession',
        change: 'signature',
        details: ['1 → 2 required parameters'],
        changedBy: 'ada',
        usedBy: 'bob',
        declaration: { file: 's.ts', line: 3 },
        use: { file: 'admin.ts', line: 4 },
        args: 1,
        callMismatch: true,
      },
      {
        symbol: 'helper',
        change: 'removed',
        details: [],
        changedBy: 'ada',
        usedBy: 'bob',
        declaration: { file: 's.ts', line: 9 },
        use: { file: 's.ts', line: 20 },
      },
    ]);
  });
});
