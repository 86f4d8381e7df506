import { readFileSync } from 'node:fs';
import { binRunner, type PackageManagerName } from './package-manager.js';
import type { ManagerName, ManagerSnippet } from './types.js';

/**
 * What to add to another hook manager's config. We never edit those files (they are the user's
 * and the manager regenerates the git hooks from them); we hand over the exact text instead.
 * `npx --no-install` never downloads: a missing local install fails like a missing command.
 */
type Snippets = Record<ManagerName, { snippet: string; applyCommand: string | null }>;

/** `runner` runs a bin of the project (src/install/package-manager.ts): npx only in an npm project. */
const snippets = (runner: string): Snippets => {
  const RUN = `${runner} airspace-hooks hook`;
  return {
    // lefthook passes git's hook arguments as {1} {2}; without use_stdin it keeps stdin to itself.
    lefthook: {
      snippet: [
        'pre-commit:',
        '  commands:',
        '    airspace-hooks:',
        `      run: ${RUN} pre-commit`,
        'pre-push:',
        '  commands:',
        '    airspace-hooks:',
        `      run: ${RUN} pre-push {1} {2}`,
        '      use_stdin: true',
      ].join('\n'),
      applyCommand: `${runner} lefthook install`,
    },
    // pre-commit (python) reads git's pre-push stdin itself and exposes it as PRE_COMMIT_* variables:
    // rebuild the `<local ref> <local sha> <remote ref> <remote sha>` line from them.
    'pre-commit': {
      snippet: [
        '- repo: local',
        '  hooks:',
        '    - id: airspace-hooks-pre-commit',
        '      name: airspace-hooks (pre-commit)',
        `      entry: ${RUN} pre-commit`,
        '      language: system',
        '      pass_filenames: false',
        '      always_run: true',
        '      stages: [pre-commit]',
        '    - id: airspace-hooks-pre-push',
        '      name: airspace-hooks (pre-push)',
        `      entry: sh -c 'printf "%s %s %s %s\\n" "$PRE_COMMIT_LOCAL_BRANCH" "$PRE_COMMIT_TO_REF" "$PRE_COMMIT_REMOTE_BRANCH" "$PRE_COMMIT_FROM_REF" | ${RUN} pre-push "$PRE_COMMIT_REMOTE_NAME" "$PRE_COMMIT_REMOTE_URL"'`,
        '      language: system',
        '      pass_filenames: false',
        '      always_run: true',
        '      stages: [pre-push]',
      ].join('\n'),
      applyCommand: 'pre-commit install --hook-type pre-commit --hook-type pre-push',
    },
    // simple-git-hooks writes each command into a `#!/bin/sh` hook: "$1" "$2" and stdin pass through.
    'simple-git-hooks': {
      snippet: ['"simple-git-hooks": {', `  "pre-commit": "${RUN} pre-commit",`, `  "pre-push": "${RUN} pre-push \\"$1\\" \\"$2\\""`, '}'].join('\n'),
      applyCommand: `${runner} simple-git-hooks`,
    },
  };
};

export function managerSnippet(manager: ManagerName, configFile: string, packageManager: PackageManagerName = 'npm'): ManagerSnippet {
  const { snippet, applyCommand } = snippets(binRunner(packageManager))[manager];
  let configured = false;
  try {
    configured = readFileSync(configFile, 'utf8').includes('airspace-hooks hook');
  } catch {
    configured = false;
  }
  return { manager, configFile, snippet, applyCommand, alreadyConfigured: configured };
}
