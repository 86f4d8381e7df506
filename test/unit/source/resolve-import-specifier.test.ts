import { describe, expect, it } from 'vitest';
import { openImportResolver } from '../../../src/source/resolve-import-specifier.js';
import { loadResolverLibraries } from '../../../src/source/resolver-libraries.js';
import { readWorkspaceLayout } from '../../../src/source/workspace-layout.js';

const libraries = await loadResolverLibraries();

/** An in-memory tree: the resolver sees files only, as the symbol channel's git-tree lookup does. */
function resolverOf(files: Record<string, string>) {
  const layout = readWorkspaceLayout(Object.keys(files), (path) => files[path], libraries);
  return openImportResolver(layout, { kind: (path) => (path in files ? 'file' : 'none') }, libraries);
}

const VUE_LIKE = {
  'package.json': JSON.stringify({ name: 'root', private: true, devDependencies: { '@vue/test-utils': '^2.0.0' } }),
  'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n  # a comment\n  - packages-private/*\ncatalog:\n  vite: ^8\n",
  // JSONC, as tsconfig files are written: comments and trailing commas.
  'tsconfig.json': '{\n  // aliases\n  "compilerOptions": { "paths": { "@vue/*": ["./packages/*/src"], "vue": ["./packages/vue/src"], }, },\n}',
  'packages/shared/package.json': JSON.stringify({
    name: '@vue/shared',
    main: 'index.js',
    types: 'dist/shared.d.ts',
    exports: { '.': { types: './dist/shared.d.ts', require: './index.js' }, './*': './*' },
  }),
  'packages/shared/index.js': "module.exports = require('./dist/shared.cjs.js')\n",
  'packages/shared/src/index.ts': "export * from './general'\n",
  'packages/shared/src/general.ts': 'export const looseToNumber = 1\n',
  'packages/runtime/package.json': JSON.stringify({ name: '@vue/runtime', dependencies: { '@vue/shared': 'workspace:*' } }),
  'packages/runtime/src/index.ts': "import { looseToNumber } from '@vue/shared'\n",
  'packages/lib/package.json': JSON.stringify({ name: '@x/lib', main: 'dist/esm/index.js' }),
  'packages/lib/src/index.ts': '',
  'packages/lib/tsconfig.json': JSON.stringify({ extends: '../../tsconfig.base.json', compilerOptions: {} }),
  'tsconfig.base.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '~lib/*': ['packages/lib/src/*'] } } }),
  'packages/lib/src/deep/util.ts': '',
  'fixtures/package.json': JSON.stringify({ name: 'lodash' }),
  'fixtures/index.ts': '',
};

describe('the one resolver: aliases, workspace packages, their sources', () => {
  const resolver = resolverOf(VUE_LIKE);
  const from = 'packages/runtime/src/index.ts';

  it('a root `paths` alias to a package folder names its index', () => {
    expect(resolver.resolve(from, '@vue/shared')).toEqual({ kind: 'file', path: 'packages/shared/src/index.ts' });
  });

  it('a package name without an alias: the exports map, `./*` to the source file', () => {
    expect(resolver.resolve('packages/lib/src/index.ts', '@vue/shared/src/general')).toEqual({ kind: 'file', path: 'packages/shared/src/general.ts' });
  });

  it('`main` in a build folder (dist/esm) maps back to src/', () => {
    expect(resolver.resolve(from, '@x/lib')).toEqual({ kind: 'file', path: 'packages/lib/src/index.ts' });
  });

  it('a per-package tsconfig that extends the base config gets its aliases (relative to its baseUrl)', () => {
    expect(resolver.resolve('packages/lib/src/index.ts', '~lib/deep/util')).toEqual({ kind: 'file', path: 'packages/lib/src/deep/util.ts' });
    expect(resolver.resolve('packages/lib/src/index.ts', '~lib/deep/gone')).toEqual({ kind: 'unresolved', why: '`paths` of tsconfig.base.json' });
  });

  it('an alias match that is a registry dependency falls back to node_modules: external', () => {
    expect(resolver.resolve(from, '@vue/test-utils')).toEqual({ kind: 'external' });
  });

  it('internal-looking names that resolve nowhere are unresolved, with the reason', () => {
    expect(resolver.resolve(from, '@vue/nothing')).toMatchObject({ kind: 'unresolved' });
    expect(resolver.resolve(from, '@x/lib/missing')).toEqual({ kind: 'unresolved', why: 'workspace package @x/lib (packages/lib/package.json)' });
    expect(resolver.resolve(from, '@x/other')).toEqual({ kind: 'unresolved', why: 'no workspace package @x/other among the @x/ packages' });
  });

  it('what is not in the workspace is external: a package.json outside its globs does not claim a name', () => {
    expect(resolver.resolve(from, 'lodash')).toEqual({ kind: 'external' });
    expect(resolver.resolve(from, 'node:fs')).toEqual({ kind: 'external' });
    expect(resolver.resolve(from, 'path')).toEqual({ kind: 'external' });
  });

  it('npm/yarn `workspaces` (array or { packages })', () => {
    const files = {
      'package.json': JSON.stringify({ name: 'r', workspaces: { packages: ['libs/*'] } }),
      'libs/a/package.json': JSON.stringify({ name: 'a', source: 'src/main.ts', main: 'build/main.js' }),
      'libs/a/src/main.ts': '',
    };
    expect(resolverOf(files).resolve('x.ts', 'a')).toEqual({ kind: 'file', path: 'libs/a/src/main.ts' });
  });
});
