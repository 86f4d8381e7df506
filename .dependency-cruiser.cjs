/**
 * Our own layering, enforced in `npm test` (`npm run lint:layers`): the engine is pure math, adapters
 * sit at the edges, only the CLI wires them together, and every module is reachable from an entry point.
 * Imports count here whether they are type-only or not; the rules about what RUNS git are in
 * .dependency-cruiser-runtime.cjs, which ignores type-only imports (a type does not spawn git).
 * Known violations waiting for their owner's branch: .dependency-cruiser-known-violations.json.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const ENTRY_POINTS = '^src/(index|cli/main|cli/hook-entry|eval/accuracy-bench)[.]ts$';

module.exports = {
  forbidden: [
    {
      name: 'engine-is-pure',
      comment: 'src/engine takes data in and returns data out: no node built-ins, no other layer, no npm package.',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { pathNot: '^src/engine/' },
    },
    {
      name: 'toolkit-is-the-bottom',
      comment:
        'No module under src/fs/ (atomic writes, lock files) or src/source/ (the import resolver, the oxc-parser loader) imports a module ' +
        'under src/ outside those two folders: every layer may use them, so they use no layer.',
      severity: 'error',
      from: { path: '^src/(fs|source)/' },
      to: { path: '^src/', pathNot: '^src/(fs|source)/' },
    },
    {
      name: 'only-cli-wires-layers',
      comment: 'Adapters and reports do not import the CLI.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'cli-does-no-git',
      comment: 'No module under src/cli/ imports a module under src/git/ (the transitive rule is cli-reaches-git-only-through-run).',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: '^src/git/' },
    },
    {
      name: 'reachable-from-an-entry-point',
      comment:
        'Every module under src/ is reachable from an entry point: the package API (src/index.ts), the full CLI (src/cli/main.ts), ' +
        'the hook fast path (src/cli/hook-entry.ts) or the accuracy bench (src/eval/accuracy-bench.ts, loaded from dist/ by bench/accuracy.mjs). ' +
        'A module only tests import is dead code. (The radar client is excluded below: scripts/bundle-radar.mjs bundles it from its own main.ts.)',
      severity: 'error',
      from: { path: ENTRY_POINTS },
      to: { path: '^src/', pathNot: ENTRY_POINTS, reachable: false },
    },
    {
      name: 'report-does-no-io-of-git',
      comment: 'Reports render results; they never call git.',
      severity: 'error',
      from: { path: '^src/report/' },
      to: { path: '^src/git/' },
    },
    {
      name: 'git-layer-knows-no-report',
      comment: "The git adapter turns the world into data; rendering is the report layer's job.",
      severity: 'error',
      from: { path: '^src/(git|graph|traffic|beacon)/' },
      to: { path: '^src/report/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^src/report/radar-client/' },
  },
};
