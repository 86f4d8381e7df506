/**
 * Rules about what runs git, on runtime imports only (type-only imports spawn nothing), enforced in
 * `npm test` (`npm run lint:layers`). Git runs only through src/git/exec-git.ts.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const layers = require('./.dependency-cruiser.cjs');

// Layers that never run git, proven by the first rule below.
const GIT_FREE = '^src/(report|messages|config|engine|mcp)/|^src/errors[.]ts$|^src/install/package-files[.]ts$';

module.exports = {
  forbidden: [
    {
      name: 'git-free-layers-never-reach-git',
      comment:
        'No module under src/report, src/messages, src/config, src/engine, src/mcp (its tools run what the CLI injects), nor src/errors.ts or src/install/package-files.ts (read by --version), ' +
        'reaches src/git/ through any chain of runtime imports, except src/git/ref-names.ts: pure name predicates that start no process ' +
        '(config validates remote and trunk names with them).',
      severity: 'error',
      from: { path: GIT_FREE },
      to: { path: '^src/git/', pathNot: '^src/git/ref-names\\.ts$', reachable: true },
    },
  ],
  options: { ...layers.options, tsPreCompilationDeps: false },
};
