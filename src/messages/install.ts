import { relative } from 'node:path';
import type {
  HookAction,
  InstallFinding,
  InstallResult,
  ManagerSnippet,
  PackageManager,
  PackageManagerName,
  UninstallAction,
  UninstallResult,
} from '../install/index.js';

/** The project's own commands: npm refuses to run in a project that declares pnpm or yarn. */
const CLI: Record<PackageManagerName, string> = {
  npm: 'npx airspace-hooks',
  pnpm: 'pnpm exec airspace-hooks',
  yarn: 'yarn airspace-hooks',
  bun: 'bunx airspace-hooks',
};
const ADD: Record<PackageManagerName, string> = {
  npm: 'npm i -D airspace-hooks',
  pnpm: 'pnpm add -D airspace-hooks',
  yarn: 'yarn add -D airspace-hooks',
  bun: 'bun add -d airspace-hooks',
};

export function packageManagerCommands(pm: PackageManagerName = 'npm'): { cli: string; add: string; install: string } {
  return { cli: CLI[pm], add: ADD[pm], install: `${pm} install` };
}

function packageManagerLine(pm: PackageManager): string[] {
  if (pm.name === 'npm') return [];
  const c = packageManagerCommands(pm.name);
  const refused = pm.source === 'devEngines' ? '; npm refuses npx and npm i here (EBADDEVENGINES)' : '';
  return [`  ${pm.name} project (from ${pm.source}): run airspace-hooks as \`${c.cli} …\`${refused}.`];
}

/**
 * Wording of install / uninstall / doctor (installation part). Each function turns a result into
 * lines; `cwd`, when given, shortens absolute paths to paths relative to it.
 */
type Show = (path: string) => string;

function shower(cwd?: string): Show {
  return (path) => {
    if (cwd === undefined) return path;
    const rel = relative(cwd, path);
    return rel === '' ? '.' : rel.startsWith('..') ? path : rel;
  };
}

const BYPASS_LINE = 'Bypass for one commit or push: --no-verify, or AIRSPACE_HOOKS=0 in the environment.';

function hookActionLine(action: HookAction, show: Show): string {
  const where = show(action.path);
  switch (action.kind) {
    case 'written':
      return `  ${action.hook}: installed ${where}`;
    case 'chained':
      return `  ${action.hook}: installed ${where}; your existing hook is kept as ${show(action.original)} and still runs first`;
    case 'updated':
      return `  ${action.hook}: updated ${where} (was airspace-hooks ${action.fromVersion})`;
    case 'already-installed':
      return `  ${action.hook}: already installed (${where})`;
    case 'husky-block-added':
      return action.createdFile
        ? `  ${action.hook}: created ${where} with the airspace-hooks block`
        : `  ${action.hook}: added the airspace-hooks block at the end of ${where}`;
    case 'modified-kept':
      return `  ${action.hook}: ${where} is ours but was edited since; left as is (run install --force to replace it)`;
    case 'modified-replaced':
      return `  ${action.hook}: ${where} was ours but edited since; replaced because of --force (your edits are gone)`;
    case 'conflict':
      return `  ${action.hook}: not installed: ${where} is another tool's hook and ${show(action.original)} already exists; move one of them away and run install again`;
    case 'not-a-file':
      return `  ${action.hook}: not installed: ${where} is not a file (a directory?); move it away and run install again`;
  }
}

export function snippetLines(snippet: ManagerSnippet, show: Show = (p) => p): string[] {
  if (snippet.alreadyConfigured) return [`airspace-hooks: ${snippet.manager} already runs airspace-hooks (${show(snippet.configFile)}); nothing to do.`];
  return [
    `airspace-hooks: this repository uses ${snippet.manager}, which owns its git hooks; airspace-hooks does not edit its files.`,
    snippet.replaces
      ? `Replace the ${snippet.replaces} entry of ${show(snippet.configFile)} with this one (your hooks kept, airspace-hooks added after them):`
      : `Add this to ${show(snippet.configFile)}:`,
    '',
    ...snippet.snippet.split('\n').map((line) => `    ${line}`),
    '',
    ...(snippet.applyCommand === null ? [] : [`then run: ${snippet.applyCommand}`]),
  ];
}

export function installResultLines(result: InstallResult, cwd?: string): string[] {
  const show = shower(cwd);
  const c = packageManagerCommands(result.packageManager?.name);
  switch (result.outcome) {
    case 'skipped-ci':
      return ['airspace-hooks: CI detected (CI is set); hooks not installed. Use install --force to install anyway.'];
    case 'snippet':
      return result.manager === null ? [] : snippetLines(result.manager, show);
    case 'refused-hooks-path':
      return [
        `airspace-hooks: not installed: core.hooksPath is set to "${result.hooksPath ?? ''}", so git runs hooks from ${show(result.hooksDir ?? '')}, a directory another tool or person manages.`,
        'Either add `airspace-hooks hook pre-commit` and `airspace-hooks hook pre-push "$1" "$2"` to the hooks there,',
        `or run \`${c.cli} install --worktree\` to put our shims into that directory (existing hooks there are kept and still run first; \`--force\` does the same and also replaces shims you edited).`,
      ];
    case 'installed': {
      const head =
        result.strategy === 'husky'
          ? `airspace-hooks ${result.version}: hooks added to husky's scripts in ${show(result.hooksDir ?? '')}`
          : result.joinedHooksPath === true
            ? `airspace-hooks ${result.version}: hooks installed in ${show(result.hooksDir ?? '')}, where core.hooksPath "${result.hooksPath ?? ''}" sends git (hooks already there still run first; \`${c.cli} uninstall --worktree\` here puts them back)`
            : `airspace-hooks ${result.version}: hooks installed in ${show(result.hooksDir ?? '')} (shared by every worktree of this repository)`;
      const lines = [head, ...result.hooks.map((action) => hookActionLine(action, show))];
      if (result.forced && result.hooksPath !== null && result.strategy === 'hooks-dir')
        lines.push(`  (core.hooksPath "${result.hooksPath}" is not ours; installed there because of --force)`);
      const fix = result.huskyFix ?? 'npx husky';
      if (result.huskyInactive)
        lines.push(`  husky is not active in this clone yet (core.hooksPath is unset): run \`${fix}\` (or \`${c.install}\`) so git runs the scripts.`);
      if (result.huskyRuntimeMissing)
        lines.push(
          `  husky's generated .husky/_ is missing in this worktree (it is gitignored), so git runs NO hook here yet: run \`${fix}\` (or \`${c.install}\`) in this worktree.`,
        );
      if (result.packageManager) lines.push(...packageManagerLine(result.packageManager));
      lines.push(BYPASS_LINE);
      return lines;
    }
  }
}

function uninstallActionLine(action: UninstallAction, show: Show): string {
  const where = show(action.path);
  switch (action.kind) {
    case 'shim-removed':
      return action.restored === null ? `  ${action.hook}: removed ${where}` : `  ${action.hook}: removed our shim; your original hook is back at ${where}`;
    case 'husky-block-removed':
      return action.deletedFile
        ? `  ${action.hook}: deleted ${where} (install had created it)`
        : `  ${action.hook}: removed the airspace-hooks block from ${where}`;
    case 'modified-kept':
      return `  ${action.hook}: ${where} was installed by airspace-hooks but edited since; left in place, remove it by hand if you no longer want it`;
    case 'orphan-original':
      return `  ${action.hook}: ${where} holds a hook airspace-hooks once moved aside, but another hook now sits in its place; left for you to sort out`;
  }
}

export function uninstallResultLines(result: UninstallResult, cwd?: string): string[] {
  const show = shower(cwd);
  const lines =
    result.actions.length === 0
      ? ['airspace-hooks: no hooks of ours found; nothing to remove.']
      : ['airspace-hooks: uninstalled', ...result.actions.map((a) => uninstallActionLine(a, show))];
  if (result.manager !== null)
    lines.push(`  ${result.manager.manager} still calls airspace-hooks: remove its entries from ${show(result.manager.configFile)}.`);
  return lines;
}

const MARK = { ok: 'ok  ', warn: 'warn', error: 'FAIL' } as const;

/** `git config --unset` reads the shared file unless told the level: a worktree's own value needs `--worktree`. */
function unsetHooksPath(scope: string | undefined): string {
  if (scope === undefined || scope === 'command') return '';
  return `, or git config --${scope} --unset core.hooksPath`;
}

function findingText(finding: InstallFinding, show: Show, pm: PackageManagerName): string {
  const c = packageManagerCommands(pm);
  const where = finding.path === undefined ? '' : show(finding.path);
  const hook = finding.hook === undefined ? '' : `${finding.hook}: `;
  switch (finding.code) {
    case 'not-installed':
      return `hooks not installed (nothing of ours in ${where}); run: ${c.cli} install`;
    case 'disabled-by-env':
      return 'AIRSPACE_HOOKS=0 is set in this environment: every hook lets everything through';
    case 'shim-installed':
      return `${hook}installed (${where}, version ${finding.detail ?? '?'})`;
    case 'shim-outdated':
      return `${hook}${where} comes from airspace-hooks ${finding.detail ?? '?'}; run: ${c.cli} install`;
    case 'shim-modified':
      return `${hook}${where} was edited after install; run ${c.cli} install --force to restore it`;
    case 'shim-not-executable':
      return `${hook}${where} is not executable, so git skips it; run: chmod +x ${where}`;
    case 'shim-not-active':
      return `${hook}our hook in ${where} never runs: core.hooksPath${finding.scope ? ` (${finding.scope} config)` : ''} sends git to "${finding.detail ?? ''}"; run ${c.cli} install --worktree here (our hook joins that directory, the hooks there still run first)${unsetHooksPath(finding.scope)}`;
    case 'husky-block-installed':
      return `${hook}airspace-hooks block in ${where} (version ${finding.detail ?? '?'})`;
    case 'husky-block-modified':
      return `${hook}the airspace-hooks block in ${where} was edited; run ${c.cli} install --force to restore it`;
    case 'husky-block-unreachable':
      return `${hook}${where} exits before the airspace-hooks block, so the check never runs; move the block above the \`exit\` line`;
    case 'husky-not-active':
      return `husky scripts in ${where} carry our block, but husky is not active here (core.hooksPath unset); run: ${finding.detail ?? 'npx husky'}`;
    case 'husky-runtime-missing':
      return `husky's generated ${where} is missing in this worktree (it is gitignored), so git runs no hooks here; run ${finding.detail ?? 'npx husky'} (or ${c.install}) in this worktree`;
    case 'manager-configured':
      return `${finding.detail ?? 'the hook manager'} runs airspace-hooks (${where})`;
    case 'manager-not-configured':
      return `${finding.detail ?? 'the hook manager'} owns the hooks but ${where} does not call airspace-hooks; run ${c.cli} install for the snippet`;
    case 'manager-not-active': {
      const [manager = 'the hook manager', apply = ''] = (finding.detail ?? '').split('\0');
      return `${manager} runs airspace-hooks in its config, but it has not written git's hooks here (${where} is missing or not its own): git runs no hook${apply ? `; run ${apply}` : ''}`;
    }
    case 'orphan-original':
      return `${hook}${where}.airspace-original is a hook we once moved aside, but our shim is gone; run ${c.cli} install (chains it again) or uninstall (puts it back)`;
    case 'cli-missing':
      return `the airspace-hooks CLI is not found from ${where} (node_modules/.bin or PATH): hooks let everything through; run ${c.install} (or ${c.add})`;
  }
}

export function findingLines(findings: readonly InstallFinding[], cwd?: string, pm: PackageManagerName = 'npm'): string[] {
  const show = shower(cwd);
  return findings.map((finding) => `${MARK[finding.level]} ${findingText(finding, show, pm)}`);
}

export const formatInstallResult = (result: InstallResult, cwd?: string): string => installResultLines(result, cwd).join('\n');
export const formatUninstallResult = (result: UninstallResult, cwd?: string): string => uninstallResultLines(result, cwd).join('\n');
export const formatInstallFindings = (findings: readonly InstallFinding[], cwd?: string, pm?: PackageManagerName): string =>
  findingLines(findings, cwd, pm).join('\n');
