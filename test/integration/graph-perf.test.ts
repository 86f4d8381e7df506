import { performance } from 'node:perf_hooks';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildImportGraph } from '../helpers/build-import-graph.js';
import { cruiserUsage } from '../../src/graph/run-cruise.js';
import { loadImportGraph } from '../../src/graph/load-import-graph.js';
import { resolutionConfigKey } from '../../src/graph/adjacency.js';
import { writeGraphCache, type FileRecord } from '../../src/graph/graph-cache.js';
import { commitAll, gitIn, initRepo, removeDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * How the graph's three paths compare on a generated repository: a full cruise, an incremental
 * refresh after 5 edited files, and the warm (cache-only) load. Small in CI; set
 * AIRSPACE_GRAPH_PERF=1 for the 2,000-file measurement (and a 10,000-file warm load) with timings
 * printed. The assertions are about work done (files cruised, equal graphs), not about time.
 */
const MEASURE = process.env.AIRSPACE_GRAPH_PERF === '1';
const FILES = MEASURE ? 2000 : 80;
const PACKAGES = MEASURE ? 20 : 4;
const TIMEOUT = MEASURE ? 1_200_000 : 120_000;

/** Nested packages; each file imports two earlier files of its package and one of another package (alias or relative). */
function generateRepo(files: number, packages: number): Record<string, string> {
  const out: Record<string, string> = {
    'tsconfig.json': JSON.stringify({
      compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', paths: { '@pkg/*': ['./packages/*/src/index.ts'] } },
    }),
    '.gitignore': 'node_modules/\n',
  };
  const perPackage = Math.ceil(files / packages);
  for (let p = 0; p < packages; p++) {
    out[`packages/p${p}/src/index.ts`] = `export const name = 'p${p}';\n`;
    for (let i = 1; i < perPackage; i++) {
      const dir = `packages/p${p}/src/${i % 3 === 0 ? 'core' : i % 3 === 1 ? 'feature/deep' : 'util'}`;
      const lines = [`import { name } from '@pkg/p${(p + 1) % packages}';`];
      for (const j of [Math.floor(i / 2), Math.floor(i / 3)]) {
        if (j < 1) continue;
        const target = `packages/p${p}/src/${j % 3 === 0 ? 'core' : j % 3 === 1 ? 'feature/deep' : 'util'}/m${j}.js`;
        lines.push(`import { v${j} } from '${relativeSpecifier(dir, target)}';`);
      }
      lines.push(`import type { Stats } from 'node:fs';`, `export const v${i}: unknown = [name, ${i}];`, `export type T${i} = Stats;`);
      out[`${dir}/m${i}.ts`] = `${lines.join('\n')}\n`;
    }
  }
  return out;
}

function relativeSpecifier(fromDir: string, to: string): string {
  const from = fromDir.split('/');
  const target = to.split('/');
  let common = 0;
  while (common < from.length && from[common] === target[common]) common++;
  const up = from.length - common;
  const rest = target.slice(common).join('/');
  return up === 0 ? `./${rest}` : `${'../'.repeat(up)}${rest}`;
}

const time = async <T>(run: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const value = await run();
  return [value, Math.round(performance.now() - started)];
};

describe(`graph paths on a generated repository of ${FILES} files`, () => {
  const cleanup: string[] = [];
  afterAll(() => cleanup.forEach(removeDir));

  it(
    'an incremental refresh of 5 edited files cruises 5 files and equals a full rebuild; the warm load cruises none',
    async () => {
      const files = generateRepo(FILES, PACKAGES);
      const repo = initRepo(files);
      cleanup.push(repo);
      const common = gitIn(repo, 'rev-parse', '--git-common-dir');

      const [, importMs] = await time(() => import('dependency-cruiser'));
      const [full, fullMs] = await time(() => loadImportGraph(repo, common, { refresh: 'auto' }));
      expect(full.source).toBe('full');
      expect(full.warnings).toEqual([]);
      const sources = Object.keys(files).filter((path) => path.endsWith('.ts'));
      expect(full.filesCruised).toBe(sources.length);

      const edited = sources.filter((path) => path.includes('/m')).slice(0, 5);
      writeFiles(repo, Object.fromEntries(edited.map((path) => [path, `${files[path]}export const edited = true;\n`])));
      const [incremental, incrementalMs] = await time(() => loadImportGraph(repo, common, { refresh: 'auto' }));
      expect(incremental).toMatchObject({ source: 'incremental', filesCruised: 5, stale: false });

      const before = cruiserUsage();
      const [warm, warmMs] = await time(() => loadImportGraph(repo, common, { refresh: 'never' }));
      expect(cruiserUsage()).toEqual(before);
      expect(warm).toMatchObject({ source: 'cache', changedSinceBuild: 0 });

      const rebuilt = await buildImportGraph(repo);
      expect(incremental.graph.adjacency).toEqual(rebuilt.graph.adjacency);
      expect(warm.graph.adjacency).toEqual(rebuilt.graph.adjacency);
      const edges = Object.values(rebuilt.graph.adjacency).reduce((sum, targets) => sum + targets.length, 0);
      expect(edges).toBeGreaterThan(sources.length);

      if (MEASURE) {
        console.log(
          [
            `graph timings, ${sources.length} TS files, ${edges} edges (ms):`,
            `  import dependency-cruiser      ${importMs}`,
            `  full cruise (no cache)         ${fullMs}`,
            `  incremental, 5 edited files    ${incrementalMs}  (${((100 * incrementalMs) / fullMs).toFixed(1)}% of full; with the import ${((100 * (incrementalMs + importMs)) / (fullMs + importMs)).toFixed(1)}%)`,
            `  warm load (refresh 'never')    ${warmMs}`,
          ].join('\n'),
        );
      }
    },
    TIMEOUT,
  );

  it.runIf(MEASURE)(
    'the warm load of a 10,000-file cache is one ls-files and a JSON parse',
    async () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 10_000; i++) files[`packages/p${i % 50}/src/d${i % 7}/m${i}.ts`] = `export const v${i} = ${i};\n`;
      const repo = initRepo({ 'README.md': '# big\n' });
      cleanup.push(repo);
      writeFiles(repo, files);
      writeFileSync(join(repo, 'tsconfig.json'), '{}');
      commitAll(repo, 'big');
      const records = new Map<string, FileRecord>();
      const paths = Object.keys(files);
      for (const entry of gitIn(repo, 'ls-files', '-s').split('\n')) {
        const [meta, path] = entry.split('\t') as [string, string];
        if (!path.endsWith('.ts')) continue;
        const index = Number(path.slice(path.lastIndexOf('/m') + 2, -3));
        records.set(path, { blob: meta.split(' ')[1]!, imports: [1, 2, 3].map((k) => paths[(index * 7 + k * 31) % paths.length]!), unresolved: [] });
      }
      const common = gitIn(repo, 'rev-parse', '--git-common-dir');
      writeGraphCache(join(repo, common), { builtAt: Date.now(), configKey: '', typescriptAvailable: true, files: records });
      // A cache written under another resolution config counts every file as changed...
      const probe = await loadImportGraph(repo, common, { refresh: 'never' });
      expect(probe.changedSinceBuild).toBe(10_000); // config key mismatch counts every file
      // ...so write it again under the real one.
      const configKey = resolutionConfigKey('tsconfig.json', new Map([['tsconfig.json', gitIn(repo, 'rev-parse', 'HEAD:tsconfig.json')]]));
      writeGraphCache(join(repo, common), { builtAt: Date.now(), configKey, typescriptAvailable: true, files: records });

      const runs: number[] = [];
      for (let run = 0; run < 5; run++) {
        const [loaded, ms] = await time(() => loadImportGraph(repo, common, { refresh: 'never' }));
        expect(loaded).toMatchObject({ source: 'cache', changedSinceBuild: 0 });
        expect(Object.keys(loaded.graph.adjacency)).toHaveLength(10_000);
        runs.push(ms);
      }
      const [, floorMs] = await time(async () => gitIn(repo, 'status', '--porcelain'));
      runs.sort((a, b) => a - b);
      console.log(`warm load, 10,000 files: median ${runs[2]} ms (runs ${runs.join(', ')}); git status --porcelain ${floorMs} ms`);
    },
    TIMEOUT,
  );
});
