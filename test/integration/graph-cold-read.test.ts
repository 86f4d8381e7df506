import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cruiseInBatches } from '../../src/graph/cruise-in-batches.js';
import { readGraphCache } from '../../src/graph/graph-cache.js';
import { graphHealth } from '../../src/graph/graph-health.js';
import { loadImportGraph } from '../../src/graph/load-import-graph.js';
import { probeTypescript } from '../../src/graph/probe-typescript.js';
import { openDirectReader } from '../../src/graph/read-imports-directly.js';
import { cruiserUsage, openCruiseSession } from '../../src/graph/run-cruise.js';
import { initRepo, removeDir, tempDir } from '../helpers/temp-repo.js';

/**
 * A first build (no cache) of a repository without a tsconfig, whose files the direct read can
 * take, must not load dependency-cruiser (~1.7 s of CPU): TypeScript's availability is read from
 * the installed packages, and a file with nothing to import with needs no parser. The records stay
 * dependency-cruiser's, file by file (the same oracle as graph-direct-read.test.ts).
 */

const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;

const FILES: Record<string, string> = {
  // No parser takes these, and nothing in them imports.
  'src/notes.ts': numbered(30),
  'src/half-written.ts': 'export const total = (a: number, b: number) => a +\n',
  'src/view.js': 'const x = <div>{1}</div>; }}}\n',
  // Relative imports only: read directly.
  'src/a.ts': "import { b } from './b.js';\nexport const a = b;\n",
  'src/b.ts': 'export const b = 1;\n',
  // Broken, but with something to import with: left to dependency-cruiser, which still finds it.
  'src/broken-import.ts': "import { b } from './b.js'\nexport const = ;;; {{{ )\n",
  'src/escaped.ts': "const b = requ\\u0069re('./b.js'); }}}\n",
  'src/reference.ts': '/// <reference path="./b.ts" />\nline 1\nline 2\n',
};

describe('probeTypescript', () => {
  it('answers what dependency-cruiser itself answers', async () => {
    const dc = await import('dependency-cruiser');
    const typescript = dc.getAvailableTranspilers().find((transpiler) => transpiler.name === 'typescript');
    expect(typescript?.available).toBe(true);
    expect(`typescript@${probeTypescript()?.version}`).toBe((typescript as { currentVersion?: string }).currentVersion);
  });
});

describe('a cold graph without a tsconfig', () => {
  let repo: string;
  const files = Object.keys(FILES).sort();

  beforeAll(() => {
    repo = initRepo(FILES, realpathSync(tempDir()));
  });
  afterAll(() => removeDir(repo));

  it('takes files with nothing to import with directly, and leaves the doubtful ones to dependency-cruiser', async () => {
    const { records, rest } = (await openDirectReader(repo))!.read(files);
    for (const file of ['src/notes.ts', 'src/half-written.ts', 'src/view.js']) expect(records.get(file), file).toEqual({ imports: [], unresolved: [] });
    expect([...rest].sort()).toEqual(['src/broken-import.ts', 'src/escaped.ts', 'src/reference.ts']);
  });

  it('gives dependency-cruiser’s record for every file', async () => {
    const direct = await cruiseInBatches(repo, files, { tsconfig: undefined, now: Date.now });
    const cruiser = await cruiseInBatches(repo, files, { tsconfig: undefined, now: Date.now, direct: false });
    for (const file of files) expect(direct.cruised.get(file), file).toEqual(cruiser.cruised.get(file));
    // The doubtful ones are not empty: a wrong shortcut for them would show here.
    expect(cruiser.cruised.get('src/broken-import.ts')!.imports).toEqual(['src/b.ts']);
    expect(cruiser.cruised.get('src/escaped.ts')!.imports).toEqual(['src/b.ts']);
    expect(cruiser.cruised.get('src/reference.ts')!.imports).toEqual(['src/b.ts']);
    expect(direct.typescriptAvailable).toBe(true);
  });
});

describe('the first build of a small repository', () => {
  let repo: string;

  beforeAll(() => {
    repo = initRepo({ 'src/a.ts': FILES['src/a.ts']!, 'src/b.ts': FILES['src/b.ts']!, 'src/notes.ts': FILES['src/notes.ts']! }, realpathSync(tempDir()));
  });
  afterAll(() => removeDir(repo));

  it('builds the graph without loading dependency-cruiser and records that TypeScript was found', async () => {
    const common = join(repo, '.git');
    const before = cruiserUsage().loads;
    const loaded = await loadImportGraph(repo, common, { refresh: 'auto' });
    expect(cruiserUsage().loads).toBe(before);
    expect(loaded.source).toBe('full');
    expect(loaded.graph.adjacency).toEqual({ 'src/a.ts': ['src/b.ts'], 'src/b.ts': [], 'src/notes.ts': [] });
    expect(loaded.warnings).toEqual([]);
    expect(readGraphCache(common)?.typescriptAvailable).toBe(true);
  });

  it('doctor reports TypeScript as dependency-cruiser would, without loading it', async () => {
    const before = cruiserUsage().loads;
    const health = await graphHealth(repo, join(repo, '.git'));
    expect(cruiserUsage().loads).toBe(before);
    const session = await openCruiseSession(repo, undefined);
    expect(health.typescript).toEqual({ available: session.typescriptAvailable, version: session.typescriptVersion, readWithOxc: true });
    expect(health.typescript.available).toBe(true);
    expect(health.warnings).toEqual([]);
  });
});
