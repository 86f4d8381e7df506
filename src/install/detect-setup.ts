import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AirspaceError } from '../errors.js';
import { git } from '../git/exec-git.js';
import { readHooksPath } from '../git/hooks-path.js';
import { gitMessages } from '../messages/command-line.js';
import { detectPackageManager, type PackageManager, type PackageManagerName } from './package-manager.js';
import type { ManagerName } from './types.js';

/** Where hooks live for this worktree and which hook tooling the repository already uses. */
export interface HookSetup {
  /** Root of the worktree the command runs in. */
  readonly toplevel: string;
  /** The git dir shared by all worktrees (absolute). */
  readonly commonDir: string;
  /** The directory git runs hooks from for this worktree (absolute, honours core.hooksPath). */
  readonly hooksDir: string;
  /** `<common dir>/hooks`: where hooks live when core.hooksPath is unset. */
  readonly defaultHooksDir: string;
  /** core.hooksPath as configured (`~/` expanded), or null. */
  readonly hooksPath: string | null;
  /** The config level that sets it (`worktree`, `local`, `global`, `system`, `command`), or null. */
  readonly hooksPathScope: string | null;
  readonly husky: HuskySetup | null;
  /** The first hook manager whose config file is present in the worktree. */
  readonly manager: { readonly name: ManagerName; readonly configFile: string } | null;
  /** The project's package manager: the commands we print and write must run with it. */
  readonly packageManager: PackageManager;
}

export interface HuskySetup {
  /** Where the user's husky scripts live (`.husky`): our block goes there. */
  readonly scriptsDir: string;
  /** husky's generated runtime (`.husky/_`, gitignored: missing in a fresh worktree or clone). */
  readonly runtimeDir: string;
  /** core.hooksPath points at husky, so git runs husky's hooks. */
  readonly active: boolean;
  /**
   * 9 (core.hooksPath = .husky/_, set up by `npx husky`) or 8 (≤ 8: core.hooksPath = .husky, set up
   * by `npx husky install`); null when neither the hooks path nor package.json tells.
   */
  readonly major: 8 | 9 | null;
}

/** The command that makes git run husky's scripts in this worktree, for the husky in use. */
export function huskySetupCommand(major: 8 | 9 | null, packageManager: PackageManagerName = 'npm'): string {
  const runner = { npm: 'npx', pnpm: 'pnpm exec', yarn: 'yarn', bun: 'bunx' }[packageManager];
  return major === 8 ? `${runner} husky install` : `${runner} husky`;
}

export async function detectSetup(cwd: string): Promise<HookSetup> {
  // One rev-parse answers the three paths. `--git-path hooks` follows core.hooksPath and, for a
  // relative hooksPath, resolves it against this worktree (not the main one); without
  // core.hooksPath it names the common dir's hooks/, shared by every linked worktree.
  // Exit 128 outside a repository (or in a bare one): one line of ours instead of git's "fatal".
  const [toplevel = '', commonDir = '', hooksDir = ''] = (
    await git(['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-common-dir', '--git-path', 'hooks'], { cwd, okCodes: [128], userHooks: true })
  ).split('\n');
  if (toplevel === '' || commonDir === '' || hooksDir === '') throw new AirspaceError('environment', 'not-a-repository', gitMessages.notARepository(cwd));
  const configured = await readHooksPath(cwd);
  const hooksPath = configured?.value ?? null;
  return {
    toplevel,
    commonDir,
    hooksDir,
    defaultHooksDir: join(commonDir, 'hooks'),
    hooksPath,
    hooksPathScope: configured?.scope ?? null,
    husky: detectHusky(toplevel, hooksPath === null ? null : hooksDir),
    manager: detectManager(toplevel),
    packageManager: detectPackageManager(toplevel),
  };
}

function detectHusky(toplevel: string, hooksDir: string | null): HuskySetup | null {
  if (hooksDir !== null) {
    // husky 9: core.hooksPath = .husky/_ (a generated dir of one-line hooks calling `_/h`).
    if (basename(hooksDir) === '_' && (isFile(join(hooksDir, 'h')) || basename(dirname(hooksDir)) === '.husky')) {
      return { scriptsDir: dirname(hooksDir), runtimeDir: hooksDir, active: true, major: 9 };
    }
    // husky 4–8: core.hooksPath = .husky, scripts run directly and source `_/husky.sh`.
    if (basename(hooksDir) === '.husky' || isFile(join(hooksDir, '_', 'husky.sh'))) {
      return { scriptsDir: hooksDir, runtimeDir: join(hooksDir, '_'), active: true, major: 8 };
    }
    return null;
  }
  // A repository set up for husky whose `prepare` script has not run yet in this clone.
  const scriptsDir = join(toplevel, '.husky');
  if (isDirectory(scriptsDir) && packageJsonMentions(toplevel, 'husky')) {
    return { scriptsDir, runtimeDir: join(scriptsDir, '_'), active: false, major: declaredHuskyMajor(toplevel) };
  }
  return null;
}

/** husky's major version from the installed package, else from the range in package.json. */
function declaredHuskyMajor(toplevel: string): 8 | 9 | null {
  const installed = readJson(join(toplevel, 'node_modules', 'husky', 'package.json')) as { version?: unknown } | null;
  const pkg = readPackageJson(toplevel) as Record<string, Record<string, unknown> | undefined> | null;
  const range = typeof installed?.version === 'string' ? installed.version : (pkg?.devDependencies?.husky ?? pkg?.dependencies?.husky);
  const major = typeof range === 'string' ? Number(/\d+/.exec(range)?.[0]) : Number.NaN;
  if (!Number.isFinite(major)) return null;
  return major <= 8 ? 8 : 9;
}

const MANAGER_FILES: ReadonlyArray<readonly [ManagerName, string]> = [
  ['lefthook', 'lefthook.yml'],
  ['lefthook', '.lefthook.yml'],
  ['lefthook', 'lefthook.yaml'],
  ['lefthook', '.lefthook.yaml'],
  ['lefthook', '.config/lefthook.yml'],
  ['lefthook', '.config/lefthook.yaml'],
  ['pre-commit', '.pre-commit-config.yaml'],
  ['pre-commit', '.pre-commit-config.yml'],
  ['simple-git-hooks', '.simple-git-hooks.json'],
  ['simple-git-hooks', '.simple-git-hooks.js'],
  ['simple-git-hooks', '.simple-git-hooks.cjs'],
  ['simple-git-hooks', '.simple-git-hooks.mjs'],
  ['simple-git-hooks', 'simple-git-hooks.json'],
  ['simple-git-hooks', 'simple-git-hooks.js'],
  ['simple-git-hooks', 'simple-git-hooks.cjs'],
  ['simple-git-hooks', 'simple-git-hooks.mjs'],
];

export function detectManager(toplevel: string): HookSetup['manager'] {
  for (const [name, file] of MANAGER_FILES) {
    const configFile = join(toplevel, file);
    if (isFile(configFile)) return { name, configFile };
  }
  const pkg = readPackageJson(toplevel);
  if (pkg !== null && typeof pkg === 'object' && 'simple-git-hooks' in pkg) {
    return { name: 'simple-git-hooks', configFile: join(toplevel, 'package.json') };
  }
  return null;
}

function packageJsonMentions(toplevel: string, name: string): boolean {
  const pkg = readPackageJson(toplevel) as Record<string, Record<string, string> | undefined> | null;
  if (pkg === null) return false;
  const inDeps = ['dependencies', 'devDependencies'].some((key) => pkg[key]?.[name] !== undefined);
  return inDeps || Object.values(pkg.scripts ?? {}).some((script) => typeof script === 'string' && script.includes(name));
}

function readPackageJson(toplevel: string): unknown {
  return readJson(join(toplevel, 'package.json'));
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

export function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
}

export function isDirectory(path: string): boolean {
  return existsSync(path) && (statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false);
}
