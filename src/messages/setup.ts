/**
 * Setting up and checking the setup: install, uninstall, doctor, the Claude Code hook, the config
 * file. One section per concern, each opened by a `// --- name: what ---` line; a section exports
 * named message objects (`as const`, or a record typed by its codes) and the few functions that
 * word a typed result. Symbols are imported by name.
 */

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
import { formatAge } from './hooks-and-check.js';
import { shellWord, type FoundBin } from '../install/find-cli.js';
import type { CoverageReason, HookProtection } from '../install/hook-coverage.js';

// --- install: install / uninstall and the installation part of doctor (src/install/) ---

/** How each manager runs a bin of the project: npm refuses to run in a project that declares pnpm or yarn. */
const RUNNER: Record<PackageManagerName, string> = { npm: 'npx', pnpm: 'pnpm exec', yarn: 'yarn', bun: 'bunx' };
/** The project's own commands. */
const CLI: Record<PackageManagerName, string> = {
  npm: `${RUNNER.npm} airspace-hooks`,
  pnpm: `${RUNNER.pnpm} airspace-hooks`,
  yarn: `${RUNNER.yarn} airspace-hooks`,
  bun: `${RUNNER.bun} airspace-hooks`,
};
const ADD: Record<PackageManagerName, string> = {
  npm: 'npm i -D airspace-hooks',
  pnpm: 'pnpm add -D airspace-hooks',
  yarn: 'yarn add -D airspace-hooks',
  bun: 'bun add -d airspace-hooks',
};

const DEV_ADD: Record<PackageManagerName, string> = { npm: 'npm i -D', pnpm: 'pnpm add -D', yarn: 'yarn add -D', bun: 'bun add -d' };

export function packageManagerCommands(pm: PackageManagerName = 'npm'): { cli: string; add: string; install: string } {
  return { cli: CLI[pm], add: ADD[pm], install: `${pm} install` };
}

/**
 * A bin of the project as a command that runs in the worktree it was located from
 * (src/install/find-cli.ts): the manager's runner where the worktree has it, the bare name from
 * PATH, and the main worktree's by its path in a linked worktree without node_modules (where npx
 * asks the registry: E404).
 */
export function binCommand(name: string, found: FoundBin | null, pm: PackageManagerName = 'npm'): string {
  if (found?.source === 'main-worktree') return shellWord(found.path);
  if (found?.source === 'path') return name;
  return `${RUNNER[pm]} ${name}`;
}

/** The commands a fix line may name for one worktree, each one that works there. */
export interface WorktreeCommands {
  /** airspace-hooks itself (binCommand). */
  readonly cli: string;
  /** The manager's install, run in that worktree. */
  readonly install: string;
  /** What writes husky's generated `.husky/_` there. */
  readonly husky: string;
}

/** The commands that work in an unprotected worktree, from what its coverage located there (HookProtection.fixWith). */
export function worktreeCommandsOf(p: HookProtection): WorktreeCommands {
  if (p.fixWith === undefined) return defaultWorktreeCommands();
  const pm = p.fixWith.packageManager;
  return { cli: binCommand('airspace-hooks', p.fixWith.cli, pm), install: `${pm} install`, husky: binCommand('husky', p.fixWith.husky, pm) };
}

/** The commands of a worktree where nothing has been located: the manager's runners. */
export function defaultWorktreeCommands(pm: PackageManagerName = 'npm'): WorktreeCommands {
  return { cli: CLI[pm], install: `${pm} install`, husky: `${RUNNER[pm]} husky` };
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

function findingText(finding: InstallFinding, show: Show, pm: PackageManagerName, cli: string | undefined): string {
  const c = { ...packageManagerCommands(pm), ...(cli !== undefined ? { cli } : {}) };
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

/** `cli`: how airspace-hooks runs where the lines are printed (binCommand); the manager's runner when absent. */
export function findingLines(findings: readonly InstallFinding[], cwd?: string, pm: PackageManagerName = 'npm', cli?: string): string[] {
  const show = shower(cwd);
  return findings.map((finding) => `${MARK[finding.level]} ${findingText(finding, show, pm, cli)}`);
}

export const formatInstallResult = (result: InstallResult, cwd?: string): string => installResultLines(result, cwd).join('\n');
export const formatUninstallResult = (result: UninstallResult, cwd?: string): string => uninstallResultLines(result, cwd).join('\n');
export const formatInstallFindings = (findings: readonly InstallFinding[], cwd?: string, pm?: PackageManagerName, cli?: string): string =>
  findingLines(findings, cwd, pm, cli).join('\n');

// --- harnesses: install --claude-code|--cursor|--gemini|--codex / uninstall for each harness's settings ---

/** Wording of `install --<harness>` / `uninstall` for an agent harness's settings file (`label`: Claude Code, Cursor, …). */
export const harnessMessages = {
  notJson: (label: string, flag: string, path: string) => `${path} is not valid JSON; fix it (or move it away) and run install --${flag} again (${label})`,
  unexpectedShape: (path: string, event: string) => `${path}: "hooks" must be an object and "hooks.${event}" a list; left untouched`,
  needsWorktree: (label: string, flag: string, file: string) => `install --${flag} needs a worktree (${label} reads ${file} from the project folder)`,
  added: (label: string, event: string, path: string, created: boolean) =>
    `  ${label}: ${created ? 'created' : `added the ${event} hook to`} ${path}${created ? ` with the ${event} hook` : ''} (edits are checked before they happen)`,
  already: (label: string, path: string) => `  ${label}: already installed (${path})`,
  restored: (label: string, path: string, removed: boolean) =>
    removed ? `  ${label}: removed ${path} (install had created it)` : `  ${label}: restored ${path} as it was before install`,
  updated: (label: string, path: string) => `  ${label}: updated the hook command in ${path} (it now finds the package in the main worktree)`,
  leftAlone: (label: string, flag: string, path: string) =>
    `  ${label}: ${path} has settings of its own; left alone (run install --${flag} in that worktree to add the hook)`,
  laterWorktrees: (label: string, file: string) =>
    `  ${label}: a worktree made later has ${file} only if it is committed; commit it to cover them (the hook finds the CLI in the main worktree)`,
  /** What a harness asks of the user before a project hook runs at all, by harness id. */
  enableHints: {
    codex: '  Codex: project hooks run only in a trusted project, after you review them (/hooks in Codex)',
    gemini: '  Gemini CLI: hooks run only while the hooks system is on (/settings, "Enable Hooks System")',
  } as Readonly<Record<string, string | undefined>>,
  // Printed by the hook command itself through `sh` inside single quotes: no single quote here.
  hookNotInstalled:
    'airspace-hooks: the hook script is not in this worktree or the main one (node_modules/airspace-hooks), edit not checked (fix: npm install)',
  entryRemoved: (label: string, event: string, path: string) => `  ${label}: ${path} was edited since install; took out our ${event} hook and kept the rest`,
} as const;

// --- doctor: doctor's findings and fixes ---

export const doctorMessages = {
  nodeOk: (v: string) => `Node.js ${v}`,
  nodeOld: (v: string) => `Node.js ${v} is too old (need >= 20.19)`,
  nodeFix: 'install Node.js 20.19 or newer',
  gitOk: (v: string) => `git ${v}`,
  gitOld: (v: string) => `git ${v} has no \`merge-tree --write-tree\` (need >= 2.38)`,
  gitFix: 'install git 2.38 or newer',
  repoFix: 'run airspace-hooks inside a git worktree',
  repoOk: (branch: string | null) => `repository on ${branch ?? 'a detached HEAD'}`,
  noCommits: 'the repository has no commits yet: there is nothing to compare',
  noCommitsFix: 'make a first commit',
  detached: "detached HEAD: this worktree's agent id comes from its path, and peers cannot follow it by branch name",
  detachedFix: 'git switch -c <branch> to give this line of work a name',
  shallow: 'shallow clone: merge-bases may be missing, and pairs without one are reported as unknown',
  shallowFix: 'git fetch --unshallow',
  configFrom: (source: string) => `config from ${source}`,
  configDefaults: 'no config file: defaults in use',
  configFix: 'fix the key named above in .airspacerc.json, airspace.config.json or package.json#airspace',
  noRemote: (remote: string) => `no remote "${remote}": only local worktrees are traffic, no beacons, no peers on other machines`,
  noRemoteFix: (remote: string) => `git remote add ${remote} <url>, or set "remote" in the config`,
  fetchedAgo: (remote: string, ageMs: number) => `traffic from ${remote} fetched ${formatAge(ageMs)} ago`,
  neverFetched: (remote: string) => `traffic from ${remote} never fetched by airspace-hooks`,
  /** `cli`: the command that runs our bin in this project (`npx airspace-hooks`, `pnpm exec airspace-hooks`…): a bare name is not on PATH after `npm i -D`. */
  fetchFix: (cli: string) => `${cli} check --fetch (the pre-push hook does it on every push)`,
  typescriptOk: (v: string) => `TypeScript ${v} (dependency-cruiser can read .ts files)`,
  typescriptNoApi: (v: string) => `TypeScript ${v} has no JS API: dependency-cruiser cannot read .ts files and the dependency channel goes blind`,
  typescriptMissingFor: (files: number) => `TypeScript is not installed: ${files} TypeScript files get no import edges`,
  typescriptNotNeeded: 'no TypeScript files: TypeScript is not needed here',
  typescriptReadWithOxc: (files: number, version: string | undefined) =>
    `${version === undefined ? 'TypeScript is not installed' : `TypeScript ${version} has no JS API`}: oxc-parser reads the imports of the ${files} TypeScript files (no compiler needed)`,
  /**
   * What to run when neither a TypeScript for dependency-cruiser nor oxc-parser is there: the
   * project's own install when it declares a TypeScript dependency-cruiser can use, else an add
   * with the project's manager; nothing when it declares TypeScript 7 or later (no JS API).
   */
  typescriptFix: (pm: PackageManagerName, declared: string | undefined, usable: boolean): string | undefined =>
    declared === undefined ? `${DEV_ADD[pm]} typescript@5` : usable ? `${pm} install` : undefined,
  graphMissing: 'not built yet',
  graphFix: (cli: string) => `${cli} graph build (later runs update it incrementally)`,
  harnessTopic: 'agent hooks',
  harnessInstalled: (label: string, file: string) => `${label}: edits are checked before they happen (${file})`,
  harnessEntryMissing: (label: string, file: string, fileMissing: boolean) =>
    `${label}: install recorded its edit hook in ${file}, but ${fileMissing ? 'the file is gone' : 'the file no longer has it'}: edits go unchecked`,
  harnessUnreadable: (label: string, reason: string) => `${label}: ${reason}`,
  harnessFix: (cli: string, flag: string) => `${cli} install --${flag}`,
  harnessNone: (cli: string) =>
    `no agent harness hook in this worktree (to check edits before they happen: ${cli} install --claude-code, --cursor, --gemini or --codex)`,
  graphOk: (files: number, changed: number) => `import graph of ${files} files${changed ? `, ${changed} changed since it was built` : ''}`,
  installationHeader: 'hooks',
} as const;

// --- config: configuration errors: one line naming the file, the key and what was expected ---

/** Wording of configuration errors: one line, naming the file, the key and what was expected. */
export const configMessages = {
  unreadable: (path: string, reason: string) => `cannot read config ${path}: ${reason}`,
  invalidJson: (path: string, reason: string) => `config ${path} is not valid JSON: ${reason}`,
  invalidValue: (source: string, key: string, expected: string, received: string) => `config ${source}: "${key}" must be ${expected} (got ${received})`,
  tooLarge: (path: string, bytes: number, limit: number) => `config ${path} is ${bytes} bytes; the limit is ${limit} bytes`,
  tooDeep: (path: string, limit: number) => `config ${path} nests arrays or objects more than ${limit} levels deep; no key of the config goes deeper than 3`,
  thresholdsCrossed: (source: string, tauTA: number, tauRA: number, which: string) =>
    `config ${source}: model.tauTA (${tauTA}) must be below model.tauRA (${tauRA}); ${which}`,
  worktreesUnsupported: (source: string) =>
    `config ${source}: "peers.worktrees" is not supported: other worktrees of this repository are always traffic (their uncommitted work is the collision seen earliest); remove the key`,
  globExpected: (length: number, wildcards: number, alternatives: number) =>
    `a glob of at most ${length} characters and ${wildcards} wildcards (*, **, ?), with at most ${alternatives} {a,b} alternatives and no extglob, ( | ) group, POSIX class or {1..9} range`,
  twoConfigs: (used: string, other: string) => `config: both ${used} and ${other} exist; airspace-hooks reads only one, so keep one and delete the other`,
} as const;

// --- coverage: who runs airspace-hooks where: hook coverage of every worktree (src/install/hook-coverage.ts) ---

/**
 * Wording of hook coverage (src/install/hook-coverage.ts): why git runs no airspace hook in a
 * worktree, and the one command that fixes it, written to work from any directory (`cd <path> &&`).
 */
const hooksPath = (p: HookProtection): string => (p.hooksPath?.scope ? `core.hooksPath (${p.hooksPath.scope})` : 'core.hooksPath');

const WHY: Record<CoverageReason, (p: HookProtection) => string> = {
  'nothing-installed': () => 'no airspace hook is installed',
  'hooks-path-elsewhere': (p) => `${hooksPath(p)} sends git to ${p.hooksDir}, which has no pre-push hook`,
  'foreign-hook': (p) => `${hooksPath(p)} sends git to ${p.hooksDir}, whose pre-push does not run airspace-hooks`,
  'hook-not-executable': (p) => `${p.hooksDir}/pre-push is not executable, so git skips it`,
  'husky-without-airspace': () => 'husky runs its hooks and .husky/pre-push does not call airspace-hooks',
  'husky-runtime-missing': (p) => `husky's generated ${p.hooksDir} is missing there (it is gitignored)`,
  'block-unreachable': () => 'the husky script exits before the airspace-hooks block',
  'manager-without-airspace': () => 'its hook manager runs the hooks and its config does not call airspace-hooks',
  'cli-missing': () => 'its hook cannot find the airspace-hooks CLI (no node_modules there, none on PATH)',
};

export const coverageMessages = {
  why: (p: HookProtection): string => (p.reason ? WHY[p.reason](p) : 'it runs airspace-hooks'),
  /** The command that protects the worktree at `path`, runnable from anywhere; `c`: the commands that work in that worktree. */
  fix: (path: string, p: HookProtection, c: WorktreeCommands = worktreeCommandsOf(p)): string => {
    const cd = `cd ${shellWord(path)} && `;
    switch (p.reason) {
      case 'cli-missing':
        return `${cd}${c.install}`;
      case 'husky-runtime-missing':
        return `${cd}${c.husky}`;
      case 'hook-not-executable':
        return `chmod +x ${shellWord(`${p.hooksDir}/pre-push`)}`;
      case 'hooks-path-elsewhere':
      case 'foreign-hook':
        // Our shims join that worktree's own hooks dir; the hooks already there keep running first.
        return `${cd}${c.cli} install --worktree`;
      default:
        return `${cd}${c.cli} install`;
    }
  },
  /** The ONE line the agent with right of way reads when the other side will never be advised. */
  holdUnprotected: (peer: string, why: string, fix: string) =>
    `hold: you have right of way, but ${peer} runs no airspace hook (${why}): nobody will tell it to steer, so coordinate by hand, or protect it: ${fix}`,
  /** scan: a pair whose steering agent will never be told. */
  steerPairUnprotected: (pair: string, steer: string) => `${pair} (${steer} runs no airspace hook: nobody tells it to steer)`,
  /** The steering side, when its own worktree runs no airspace hook: its push will not be checked. */
  ownUnprotected: (why: string, fix: string) => `git runs no airspace hook in this worktree (${why}): your push will not be checked; protect it: ${fix}`,
  /** doctor: a hook git runs before ours needs the worktree's own node_modules, and it has none (src/install/inspect-chained-hooks.ts). */
  chainFails: (path: string, branch: string | null, hook: string, file: string) =>
    `${path}${branch ? ` (${branch})` : ''}: ${file} runs before airspace-hooks on ${hook} and needs this worktree's own node_modules, which it has not: the ${hook === 'pre-push' ? 'push' : 'commit'} fails there before our check runs`,
  /** Installing in that worktree gives it the node_modules the chained hook reads. */
  chainFix: (path: string, c: WorktreeCommands): string => `cd ${shellWord(path)} && ${c.install}`,
  /** doctor, one finding per unprotected worktree. */
  worktreeUnprotected: (path: string, branch: string | null, why: string) => `${path}${branch ? ` (${branch})` : ''} runs no airspace hook on push: ${why}`,
  worktreesProtected: (n: number) => `airspace-hooks runs on push in ${n === 1 ? 'this worktree' : `all ${n} worktrees`}`,
  worktreesTopic: 'worktrees',
} as const;
