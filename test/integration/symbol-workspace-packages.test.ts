import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { symbolChannel } from '../../src/symbols/symbol-channel.js';
import type { ReportLink } from '../../src/report/check-report.js';
import { commitAll, gitIn, initRepo, removeDir, runCli, writeFiles } from '../helpers/temp-repo.js';

/**
 * A pnpm-style workspace (issue 26, item 1): packages call each other by package name, not by
 * relative path. ada renames an exported function of `@x/shared` and its callers; bob's new,
 * uncommitted code calls it through `import … from '@x/shared'`. Git merges them cleanly; the
 * merged code does not build. No node_modules (a fresh clone): the package name resolves to the
 * package's source through its package.json alone.
 */
const MATH = ['export function toNumber(value: string): number {', '  return Number(value);', '}', ''].join('\n');
const WORKSPACE = {
  'package.json': JSON.stringify({ name: 'root', private: true }),
  'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n",
  'packages/shared/package.json': JSON.stringify({
    name: '@x/shared',
    main: 'dist/index.js',
    types: 'dist/index.d.ts',
    exports: { '.': { types: './dist/index.d.ts', import: './dist/index.mjs', require: './dist/index.js' }, './math': './dist/math.js' },
  }),
  'packages/shared/src/index.ts': "export * from './math';\n",
  'packages/shared/src/math.ts': MATH,
  'packages/app/package.json': JSON.stringify({ name: '@x/app', dependencies: { '@x/shared': 'workspace:*' } }),
  'packages/app/tsconfig.json': JSON.stringify({ compilerOptions: { paths: { '#shared/*': ['../shared/src/*'] } } }),
  'packages/app/src/old.ts': "import { toNumber } from '@x/shared';\nexport const one = toNumber('1');\n",
};

let main: string;
const trees: Record<string, string> = {};

beforeAll(() => {
  main = initRepo(WORKSPACE);
  for (const name of ['ada', 'bob']) {
    trees[name] = join(main, '..', `${main.split('/').pop()}-${name}`);
    gitIn(main, 'worktree', 'add', '-q', '-b', name, trees[name]!);
  }
  writeFiles(trees.ada!, {
    'packages/shared/src/math.ts': MATH.replace('toNumber', 'looseToNumber'),
    'packages/app/src/old.ts': "import { looseToNumber } from '@x/shared';\nexport const one = looseToNumber('1');\n",
  });
  commitAll(trees.ada!, 'rename toNumber');
  writeFiles(trees.bob!, { 'packages/app/src/new.ts': "import { toNumber } from '@x/shared';\nexport const two = toNumber('2');\n" });
});

afterAll(() => {
  for (const dir of [...Object.values(trees), main]) removeDir(dir);
});

const linkWith = (report: { links: ReportLink[] }, peer: string): ReportLink => report.links.find((l) => l.a === peer || l.b === peer)!;

describe('symbol collisions across workspace packages', () => {
  it('a rename in @x/shared used through the package name by new uncommitted code → RA with evidence', () => {
    const report = JSON.parse(runCli(trees.bob!, ['check', '--json']).stdout);
    const ada = linkWith(report, 'ada');
    expect(ada.channels.symbol).toBe(1);
    expect(ada.level).toBe('RA');
    expect(ada.evidence).toContainEqual({
      channel: 'symbol',
      text: "ada renamed `toNumber` to `looseToNumber` (packages/shared/src/math.ts:1); bob's new code in packages/app/src/new.ts:2 calls it with 1 argument",
    });
  });
});

describe('symbolChannel through package names, subpath exports and tsconfig paths', () => {
  const channelFor = async (files: Record<string, string>): Promise<Awaited<ReturnType<typeof symbolChannel>>> => {
    const base = gitIn(main, 'rev-parse', 'main');
    const ada = gitIn(main, 'rev-parse', 'ada');
    const user = join(main, '..', `${main.split('/').pop()}-user`);
    gitIn(main, 'worktree', 'add', '-q', '--detach', user, base);
    try {
      writeFiles(user, files);
      const commit = commitAll(user, 'use toNumber');
      return await symbolChannel(main, base, ada, commit, { ids: { a: 'ada', b: 'user' } });
    } finally {
      gitIn(main, 'worktree', 'remove', '--force', user);
    }
  };

  it('a subpath export (`@x/shared/math`, exports → dist, mapped back to src)', async () => {
    const result = await channelFor({ 'packages/app/src/sub.ts': "import { toNumber } from '@x/shared/math';\nexport const n = toNumber('3');\n" });
    expect(result.value).toBe(1);
    expect(result.collisions).toEqual([expect.objectContaining({ symbol: 'toNumber', change: 'renamed', use: { file: 'packages/app/src/sub.ts', line: 2 } })]);
  });

  it('an alias of the per-package tsconfig (`#shared/math` → ../shared/src/math)', async () => {
    const result = await channelFor({ 'packages/app/src/alias.ts': "import { toNumber } from '#shared/math';\nexport const n = toNumber('4');\n" });
    expect(result.value).toBe(1);
    expect(result.collisions).toEqual([
      expect.objectContaining({ symbol: 'toNumber', change: 'renamed', use: { file: 'packages/app/src/alias.ts', line: 2 } }),
    ]);
  });

  it('an internal-looking import that does not resolve makes the channel unknown with the reason, not 0', async () => {
    const result = await channelFor({ 'packages/app/src/lost.ts': "import { toNumber } from '@x/shared/nowhere';\nexport const n = toNumber('5');\n" });
    expect(result.value).toBeNull();
    expect(result.reason).toContain('@x/shared/nowhere');
  });

  it('an import of a package from outside the repository stays clear', async () => {
    const result = await channelFor({ 'packages/app/src/ext.ts': "import { toNumber } from 'lodash-ish';\nexport const n = toNumber('6');\n" });
    expect(result.value).toBe(0);
  });
});
