/**
 * Our own layering, enforced in `npm test` (`npm run lint:layers`): the engine is pure math, adapters
 * sit at the edges, only the CLI wires them together, and every module is reachable from an entry point.
 * Imports count here whether they are type-only or not; the rules about what RUNS git are in
 * .dependency-cruiser-runtime.cjs, which ignores type-only imports (a type does not spawn git).
 * Known violations waiting for their owner's branch: .dependency-cruiser-known-violations.json.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const ENTRY_POINTS = '^src/(index|cli/main|cli/hook-entry)[.]ts$';
// The accuracy bench's own modules (bench/src/, not shipped), as bench/accuracy.mjs loads them from bench/build/.
const BENCH_ENTRY_POINTS = '^bench/src/(accuracy-bench|merge-evidence)[.]ts$';

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
      name: 'cli-reaches-only-the-door',
      comment:
        'A module under src/cli/ imports (types included) only src/cli/, the door src/app/ (one module per command, docs/decisions/layout.md), ' +
        'the renderers src/report/, the messages src/messages/, the MCP server src/mcp/ (which runs what the CLI injects) and src/errors.ts.',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: '^src/', pathNot: '^src/(cli|app|report|messages|mcp)/|^src/errors[.]ts$' },
    },
    {
      name: 'git-at-the-bottom',
      comment:
        'A module under src/git/ imports only src/git/, src/messages/ (its sentences), src/errors.ts and the toolkit under every layer (src/fs/): the git adapter knows no layer above it. ' +
        'The working-set types it fills (src/traffic/working-set.ts) are the one exception, type-only.',
      severity: 'error',
      from: { path: '^src/git/' },
      to: { path: '^src/', pathNot: '^src/(git|messages|fs)/|^src/errors[.]ts$|^src/traffic/working-set[.]ts$' },
    },
    {
      name: 'pipeline-knows-no-door',
      comment: 'The pipeline (src/run/) and the layers below it never import the door (src/app/): the door calls down, nothing calls up.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(app|cli)/' },
      to: { path: '^src/app/' },
    },
    {
      name: 'channels-only-in-their-home',
      comment:
        'The channels git computes have one caller each: src/git/merge-tree-channel.ts is imported (at runtime) only by src/channels/merge-channel.ts and ' +
        'src/symbols/symbol-channel.ts only by src/channels/symbol-channels.ts.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/channels/' },
      to: { path: '^src/(git/merge-tree-channel|symbols/symbol-channel)[.]ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'reachable-from-an-entry-point',
      comment:
        'Every module under src/ is reachable from an entry point: the package API (src/index.ts), the full CLI (src/cli/main.ts), ' +
        'or the hook fast path (src/cli/hook-entry.ts); the benchmark does not count (its modules live in bench/src/). ' +
        'A module only tests import is dead code. (The radar client is excluded below: scripts/bundle-radar.mjs bundles it from its own main.ts.)',
      severity: 'error',
      from: { path: ENTRY_POINTS },
      to: { path: '^src/', pathNot: ENTRY_POINTS, reachable: false },
    },
    {
      name: 'package-does-not-import-bench',
      comment: 'No module under src/ imports a module under bench/: the benchmark-only code is not in the npm package (docs/decisions/replay.md).',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^bench/' },
    },
    {
      name: 'bench-modules-reachable-from-the-bench',
      comment:
        'Every module under bench/src/ is reachable from bench/src/accuracy-bench.ts or bench/src/merge-evidence.ts, the two that ' +
        'bench/accuracy.mjs loads from bench/build/ (scripts/build-bench.mjs). A bench module only tests import is dead code.',
      severity: 'error',
      from: { path: BENCH_ENTRY_POINTS },
      to: { path: '^bench/src/', pathNot: BENCH_ENTRY_POINTS, reachable: false },
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
