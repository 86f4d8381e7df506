import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGraphCache, writeGraphCache } from '../../src/graph/graph-cache.js';
import { initRepo, PROJECT_ROOT, removeDir, runCli, tempDir, testEnv } from '../helpers/temp-repo.js';

/**
 * A project where TypeScript is not installed (issue 26, item 2): airspace-hooks with every one of
 * its dependencies but `typescript`, as `npm i -D airspace-hooks` leaves it in a repository that
 * has no TypeScript of its own (node's --preserve-symlinks keeps the resolution inside that
 * install). The graph must still hold the imports of the .ts files, with no advice to install a
 * compiler; and a cache a build without TypeScript left behind is read again once one is there.
 */
const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, paths: { '@lib/*': ['./lib/*'] } } }),
  'src/main.ts': "import { helper } from './helper';\nimport type { Shape } from '@lib/shape';\nexport const main = (s: Shape): number => helper(s.n);\n",
  'src/helper.ts': 'export function helper(n: number): number {\n  return n + 1;\n}\n',
  'src/legacy.ts':
    "import fs = require('node:fs');\nimport helper = require('./helper');\nexport type H = import('./helper').Unused;\nexport const l = [fs, helper];\n",
  'src/ref.ts': '/// <reference path="./globals.d.ts" />\nexport const r = 1;\n',
  'src/globals.d.ts': 'declare const VERSION: string;\n',
  'lib/shape.ts': 'export interface Shape { n: number }\n',
};

let repo: string;
let install: string;

beforeAll(() => {
  repo = initRepo(FILES);
  install = tempDir('airspace-no-ts-');
  for (const entry of ['bin', 'dist', 'package.json']) symlinkSync(join(PROJECT_ROOT, entry), join(install, entry));
  mkdirSync(join(install, 'node_modules'));
  for (const name of readdirSync(join(PROJECT_ROOT, 'node_modules'))) {
    if (name !== 'typescript') symlinkSync(join(PROJECT_ROOT, 'node_modules', name), join(install, 'node_modules', name));
  }
});
afterAll(() => {
  removeDir(repo);
  removeDir(install);
});

function withoutTypescript(args: readonly string[]): { stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--preserve-symlinks', '--preserve-symlinks-main', join(install, 'bin', 'airspace-hooks.js'), ...args], {
    cwd: repo,
    env: testEnv(),
    encoding: 'utf8',
  });
  return { stdout: result.stdout, stderr: result.stderr };
}

const edges = (): Record<string, readonly string[]> =>
  Object.fromEntries([...readGraphCache(join(repo, '.git'))!.files].map(([path, record]) => [path, record.imports]));

describe('the import graph where TypeScript is not installed', () => {
  it('reads every .ts file with oxc: relative, alias, require, type-level import and triple-slash edges; no advice', () => {
    const built = JSON.parse(withoutTypescript(['graph', 'build', '--json']).stdout);
    expect(built).toMatchObject({ ran: true, files: 6, warnings: [] });
    expect(edges()).toMatchObject({
      'src/main.ts': ['lib/shape.ts', 'src/helper.ts'],
      'src/legacy.ts': ['src/helper.ts'],
      'src/ref.ts': ['src/globals.d.ts'],
    });
    expect(readGraphCache(join(repo, '.git'))).toMatchObject({ typescriptAvailable: false, readWithOxc: true });
    const doctor = withoutTypescript(['doctor']);
    expect(doctor.stdout + doctor.stderr).not.toContain('npm i -D typescript');
  });

  it('a cache that a build without TypeScript wrote blind is read again once TypeScript is there', () => {
    // What the build before oxc left: no TypeScript, no edges for the .ts files, no `oxc` mark.
    const common = join(repo, '.git');
    const blind = readGraphCache(common)!;
    writeGraphCache(common, {
      ...blind,
      readWithOxc: false,
      typescriptAvailable: false,
      files: new Map([...blind.files].map(([path, record]) => [path, { ...record, imports: [] }])),
    });
    expect(JSON.parse(runCli(repo, ['graph', 'build', '--json']).stdout)).toMatchObject({ ran: true, files: 6, warnings: [] });
    expect(edges()['src/main.ts']).toEqual(['lib/shape.ts', 'src/helper.ts']);
    expect(readGraphCache(common)?.typescriptAvailable).toBe(true);
  });
});
