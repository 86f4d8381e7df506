import { readFileSync } from 'node:fs';
import { binRunner, type PackageManagerName } from './package-manager.js';
import type { ManagerName, ManagerSnippet } from './types.js';

/**
 * What to add to another hook manager's config. We never edit those files (they are the user's
 * and the manager regenerates the git hooks from them); we hand over the exact text instead.
 */
type Snippets = Record<ManagerName, { snippet: string; applyCommand: string | null }>;

/**
 * How the hook a manager writes runs our CLI. The manager writes it into the hooks dir that every
 * worktree shares, and a linked worktree has no node_modules until someone installs there: `npx`
 * (even with --no-install) then asks the registry, E404, and `pnpm exec` finds nothing, so the
 * commit fails before our check runs. The main worktree's node_modules/.bin, found from the common
 * git dir, is there for every worktree (as in the shims, hooks/pre-commit). yarn keeps its runner:
 * Plug'n'Play has no node_modules/.bin.
 */
function hookRunner(packageManager: PackageManagerName): string {
  return packageManager === 'yarn'
    ? `${binRunner('yarn')} airspace-hooks`
    : '"$(git rev-parse --path-format=absolute --git-common-dir)"/../node_modules/.bin/airspace-hooks';
}

/** `runner` runs a bin of the project by hand (src/install/package-manager.ts); `cli` runs ours inside a hook (hookRunner). */
const snippets = (runner: string, cli: string): Snippets => {
  const RUN = `${cli} hook`;
  // lefthook's `run:` goes to sh; single-quoted in YAML, since a plain scalar may not start with a quote.
  const yaml = (command: string) => `'${command}'`;
  return {
    // lefthook passes git's hook arguments as {1} {2}; without use_stdin it keeps stdin to itself.
    lefthook: {
      snippet: [
        'pre-commit:',
        '  commands:',
        '    airspace-hooks:',
        `      run: ${yaml(`${RUN} pre-commit`)}`,
        'pre-push:',
        '  commands:',
        '    airspace-hooks:',
        `      run: ${yaml(`${RUN} pre-push {1} {2}`)}`,
        '      use_stdin: true',
      ].join('\n'),
      applyCommand: `${runner} lefthook install`,
    },
    // pre-commit (python) reads git's pre-push stdin itself and exposes it as PRE_COMMIT_* variables:
    // rebuild the `<local ref> <local sha> <remote ref> <remote sha>` line from them. It runs
    // `entry` without a shell: `sh -c` expands the path to our CLI.
    'pre-commit': {
      snippet: [
        '- repo: local',
        '  hooks:',
        '    - id: airspace-hooks-pre-commit',
        '      name: airspace-hooks (pre-commit)',
        `      entry: sh -c '${RUN} pre-commit'`,
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
      snippet: [
        '"simple-git-hooks": {',
        `  "pre-commit": ${JSON.stringify(`${RUN} pre-commit`)},`,
        `  "pre-push": ${JSON.stringify(`${RUN} pre-push "$1" "$2"`)}`,
        '}',
      ].join('\n'),
      applyCommand: `${runner} simple-git-hooks`,
    },
  };
};

export function managerSnippet(manager: ManagerName, configFile: string, packageManager: PackageManagerName = 'npm'): ManagerSnippet {
  const runner = binRunner(packageManager);
  const cli = hookRunner(packageManager);
  const { snippet, applyCommand } = snippets(runner, cli)[manager];
  let text: string | null = null;
  try {
    text = readFileSync(configFile, 'utf8');
  } catch {
    text = null;
  }
  const configured = text?.includes('airspace-hooks hook') === true;
  const merged =
    text === null || configured
      ? null
      : manager === 'simple-git-hooks'
        ? mergedSimpleGitHooks(text, cli)
        : manager === 'lefthook'
          ? lefthookAdditions(text, cli)
          : null;
  if (merged !== null && manager === 'lefthook') return { manager, configFile, snippet: merged, applyCommand, alreadyConfigured: false };
  return merged === null
    ? { manager, configFile, snippet, applyCommand, alreadyConfigured: configured }
    : { manager, configFile, snippet: merged, replaces: '"simple-git-hooks"', applyCommand, alreadyConfigured: false };
}

/**
 * lefthook.yml already has a `pre-commit:` or `pre-push:` key: a second one of the same name would
 * replace it (YAML keys are unique), so the text says where each of our commands goes instead.
 * Null when neither key is there (the plain snippet is then added as it is).
 */
function lefthookAdditions(yaml: string, cli: string): string | null {
  const has = (hook: string) => new RegExp(`^${hook}:\\s*(#.*)?$`, 'm').test(yaml);
  if (!has('pre-commit') && !has('pre-push')) return null;
  const RUN = `${cli} hook`;
  const entry = (hook: string, run: string, stdin: boolean) =>
    has(hook)
      ? [`# under your existing ${hook}: → commands:`, '    airspace-hooks:', `      run: '${run}'`, ...(stdin ? ['      use_stdin: true'] : [])]
      : [`${hook}:`, '  commands:', '    airspace-hooks:', `      run: '${run}'`, ...(stdin ? ['      use_stdin: true'] : [])];
  return [...entry('pre-commit', `${RUN} pre-commit`, false), ...entry('pre-push', `${RUN} pre-push {1} {2}`, true)].join('\n');
}

/**
 * package.json already has a `"simple-git-hooks"` object: pasting ours beside it would replace the
 * user's hooks (a JSON key holds one value). Their commands are kept and ours run after them
 * (`&&`: a failing hook of theirs stops the commit before ours, as it would alone); every other
 * hook of theirs (commit-msg…) stays as it is. Null when there is no such object to merge with.
 */
function mergedSimpleGitHooks(packageJson: string, cli: string): string | null {
  let hooks: unknown;
  try {
    hooks = (JSON.parse(packageJson) as Record<string, unknown>)['simple-git-hooks'];
  } catch {
    return null;
  }
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) return null;
  const RUN = `${cli} hook`;
  const ours: Record<string, string> = { 'pre-commit': `${RUN} pre-commit`, 'pre-push': `${RUN} pre-push "$1" "$2"` };
  const merged: Record<string, unknown> = { ...(hooks as Record<string, unknown>) };
  for (const [hook, command] of Object.entries(ours)) {
    const theirs = merged[hook];
    merged[hook] = typeof theirs === 'string' && theirs.trim() !== '' ? `${theirs} && ${command}` : command;
  }
  return `"simple-git-hooks": ${JSON.stringify(merged, null, 2)}`;
}
