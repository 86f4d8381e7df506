/**
 * Our own layering, enforced in `npm test` (see ../shared/STYLE.md): the engine is pure math,
 * adapters sit at the edges, only the CLI wires them together.
 * @type {import('dependency-cruiser').IConfiguration}
 */
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
      name: 'only-cli-wires-layers',
      comment: 'Adapters and reports do not import the CLI.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'cli-does-no-git',
      comment: 'The CLI turns arguments into options; git is reached through the run layer.',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: '^src/git/' },
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
      comment: 'The git adapter turns the world into data; rendering is the report layer\'s job.',
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
