import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { inject } from 'vitest';
import { PROJECT_ROOT, gitIn, tempDir, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * Shared set-up of the install-*.test.ts end-to-end tests: the package as a user gets it.
 *
 * 1. `npm pack` of the dist/ that `npm test` built, under a lock so two vitest workers never
 *    pack at once.
 * 2. `npm install <tarball> --prefer-offline` into a project with the user's package.json: the
 *    real npm install, dependencies from the local npm cache (≈7 s idle, a minute or more on a
 *    loaded machine). We chose it over unpacking the tarball and symlinking our node_modules
 *    because it also proves the `files` list, the `bin` link and the dependency list are right.
 *    Steps 1 and 2 run once per `vitest run` (the first install-*.test.ts file does them under a
 *    lock, in the run's scratch directory from test/helpers/suite-fixtures.ts); every user
 *    repository then gets a copy of what npm installed (package.json, package-lock.json, our
 *    package and npm's .bin links; each dependency a link into the shared install), so each test
 *    file still has its own install of airspace-hooks.
 * 3. A recorder at node_modules/.bin/airspace-hooks (where npm put its link, so the shims find it
 *    exactly as they would the real one): it logs each call (argv and stdin) and then runs the
 *    packed bin. `AIRSPACE_E2E_VERDICT=<n>` in git's environment makes it exit <n> instead, to
 *    prove the shims honour the CLI's verdict. The packed hook entry must load: if it does not,
 *    the package is broken and the set-up fails.
 */

const LOCK = join(tmpdir(), 'airspace-e2e-pack.lock');

function packTarball(): string {
  acquireLock(LOCK, 170_000);
  try {
    // `npm test` builds dist/ before any test runs; building here would rewrite dist/ under the
    // feet of test files running the CLI in parallel.
    if (!existsSync(join(PROJECT_ROOT, 'dist', 'install', 'index.js'))) throw new Error('dist/install/index.js missing: run `npm run build` (npm test does)');
    const destination = tempDir('airspace-e2e-pack-');
    const out = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', destination], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    return join(destination, out.trim().split('\n').at(-1)!);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

function acquireLock(lock: string, waitMs: number): void {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch {
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > waitMs + 10_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`could not take ${lock}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
}

/** PATH without any node_modules/.bin, so only the repository's own install can be found. */
export function cleanPath(): string {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => !dir.includes('node_modules'))
    .join(delimiter);
}

export function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return testEnv({ PATH: cleanPath(), ...extra });
}

export function run(cwd: string, command: string, args: readonly string[], extra: Record<string, string> = {}, input?: string): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, env: env(extra), encoding: 'utf8', input, timeout: 120_000 });
}

/** git that does not throw: hooks may block on purpose. */
export function gitRun(cwd: string, args: readonly string[], extra: Record<string, string> = {}): SpawnSyncReturns<string> {
  return run(cwd, 'git', args, extra);
}

export interface UserRepo {
  readonly root: string;
  readonly repo: string;
  readonly remote: string;
}

const USER_PACKAGE_JSON = `${JSON.stringify({ name: 'user-project', version: '1.0.0', private: true }, null, 2)}\n`;

/** A user's project: package.json, node_modules ignored, one commit on main, pushed to a bare `origin`. */
export function userRepo(files: Record<string, string> = {}): UserRepo {
  const root = tempDir('airspace-e2e-');
  const repo = join(root, 'project');
  const remote = join(root, 'remote.git');
  mkdirSync(repo);
  gitIn(root, 'init', '-q', '--bare', '-b', 'main', remote);
  gitIn(repo, 'init', '-q', '-b', 'main');
  writeFiles(repo, {
    'package.json': USER_PACKAGE_JSON,
    '.gitignore': 'node_modules/\n',
    'src/app.js': 'export const app = 1;\n',
    ...files,
  });
  gitIn(repo, 'add', '-A');
  gitIn(repo, 'commit', '-q', '--no-verify', '-m', 'initial');
  gitIn(repo, 'remote', 'add', 'origin', remote);
  gitIn(repo, 'push', '-q', '--no-verify', 'origin', 'main');
  return { root, repo, remote };
}

export interface InstalledPackage {
  /** node_modules/airspace-hooks of the user's project. */
  readonly packageDir: string;
  /** Every call the hooks made to the CLI: `call:<argv>` lines, then `stdin:<line>` lines. */
  readonly log: string;
}

/** The packed package, npm-installed into `repo` (a `userRepo()`), with the recorder in front of its bin. */
export function installPackage(repo: string): InstalledPackage {
  const installed = installedOnce();
  for (const name of ['package.json', 'package-lock.json']) copyFileSync(join(installed, name), join(repo, name));
  linkDependencies(join(installed, 'node_modules'), join(repo, 'node_modules'));
  // package.json/package-lock.json changed: commit so the working tree is clean for the tests.
  gitIn(repo, 'add', '-A');
  gitIn(repo, 'commit', '-q', '--no-verify', '-m', 'add airspace-hooks');
  const packageDir = join(repo, 'node_modules', 'airspace-hooks');
  const log = join(repo, '..', 'cli-calls.log');
  const bin = join(repo, 'node_modules', '.bin', 'airspace-hooks');
  unlinkSync(bin);
  writeFileSync(
    bin,
    [
      '#!/bin/sh',
      'input=$(cat)',
      `printf 'call:%s\\n' "$*" >> '${log}'`,
      `[ -z "$input" ] || printf '%s\\n' "$input" | sed 's/^/stdin:/' >> '${log}'`,
      '[ -n "${AIRSPACE_E2E_VERDICT-}" ] && exit "$AIRSPACE_E2E_VERDICT"',
      `printf '%s\\n' "$input" | exec node '${join(packageDir, 'bin', 'airspace-hooks.js')}' "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(bin, 0o755);
  return { packageDir, log };
}

/**
 * The user's node_modules: our package and npm's `.bin` links copied (each test file changes the
 * `.bin` link and must hold its own copy of the package), every dependency a link into the shared
 * install. Node resolves a linked package by its real path, so a dependency loads exactly as from
 * a copy; copying all 48 MB cost each test file ≈1.3 s of CPU. npm's `.bin` links are relative:
 * copied as they are, they point into this node_modules.
 */
function linkDependencies(from: string, to: string): void {
  mkdirSync(to);
  for (const name of readdirSync(from)) {
    if (name === 'airspace-hooks' || name === '.bin' || !statSync(join(from, name)).isDirectory())
      cpSync(join(from, name), join(to, name), { recursive: true, verbatimSymlinks: true });
    else symlinkSync(join(from, name), join(to, name));
  }
}

/** `npm pack` + `npm install <tarball>` into a project with the user's package.json, once per `vitest run`. */
function installedOnce(): string {
  const dir = join(inject('suiteFixtureDir'), 'installed-package');
  const ready = join(dir, '.ready');
  if (existsSync(ready)) return dir;
  const lock = `${dir}.lock`;
  acquireLock(lock, 220_000);
  try {
    if (existsSync(ready)) return dir;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    writeFileSync(join(dir, 'package.json'), USER_PACKAGE_JSON);
    const tarball = packTarball();
    const result = run(dir, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-dev', tarball], { PATH: process.env.PATH ?? '' });
    rmSync(dirname(tarball), { recursive: true, force: true });
    if (result.status !== 0) throw new Error(`npm install failed: ${result.stderr}`);
    // Once per run, not per copy: each copy holds the same bytes, and every test's hooks run it.
    if (!hookEntryLoads(join(dir, 'node_modules', 'airspace-hooks'))) throw new Error('the packed `airspace-hooks hook pre-commit` does not start');
    writeFileSync(ready, '');
    return dir;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Does the packed `airspace-hooks hook pre-commit` start at all (its modules resolve)? */
function hookEntryLoads(packageDir: string): boolean {
  const scratch = tempDir('airspace-e2e-probe-');
  try {
    gitIn(scratch, 'init', '-q', '-b', 'main');
    const result = run(scratch, process.execPath, [join(packageDir, 'bin', 'airspace-hooks.js'), 'hook', 'pre-commit'], {}, '');
    return !/ERR_MODULE_NOT_FOUND|Cannot find module|SyntaxError/.test(result.stderr);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export function calls(pkg: InstalledPackage): string[] {
  return existsSync(pkg.log)
    ? readFileSync(pkg.log, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
    : [];
}

export function clearCalls(pkg: InstalledPackage): void {
  rmSync(pkg.log, { force: true });
}

/** Is `install`/`uninstall` wired into the packed CLI yet? If not, call the packed API the same way. */
export function cliWired(pkg: InstalledPackage): boolean {
  return existsSync(join(pkg.packageDir, 'dist', 'cli', 'commands', 'install-command.js')) && process.env.AIRSPACE_E2E_VIA_API !== '1';
}

/**
 * `npx airspace-hooks <install|uninstall|doctor> [--force]` from `cwd`. Until the CLI wires the
 * commands, a few lines of script do what the coordinator's command does: call the packed API
 * and print the packed formatter's text (exit 1 when the install result is not ok).
 */
export function airspace(pkg: InstalledPackage, cwd: string, args: readonly string[], extra: Record<string, string> = {}): SpawnSyncReturns<string> {
  if (cliWired(pkg)) return run(cwd, process.execPath, [join(pkg.packageDir, 'bin', 'airspace-hooks.js'), ...args], extra);
  const script = [
    `const api = await import(${JSON.stringify(join(pkg.packageDir, 'dist', 'install', 'index.js'))});`,
    `const text = await import(${JSON.stringify(join(pkg.packageDir, 'dist', 'messages', 'install.js'))});`,
    'const [command, ...rest] = process.argv.slice(1); const cwd = process.cwd();',
    "if (command === 'install') { const r = await api.install(cwd, { force: rest.includes('--force') }); console.log(text.formatInstallResult(r, cwd)); process.exitCode = r.ok ? 0 : 1; }",
    "if (command === 'uninstall') console.log(text.formatUninstallResult(await api.uninstall(cwd), cwd));",
    "if (command === 'doctor') console.log(text.formatInstallFindings(await api.inspectInstallation(cwd), cwd));",
  ].join('\n');
  return run(cwd, process.execPath, ['--input-type=module', '-e', script, ...args], extra);
}

/** Name → mode and content hash of every file below `dir` (recursive): "byte-identical" compares these. */
export function snapshotDir(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (sub: string): void => {
    for (const name of readdirSync(join(dir, sub)).sort()) {
      const rel = sub === '' ? name : `${sub}/${name}`;
      const stat = statSync(join(dir, rel));
      if (stat.isDirectory()) walk(rel);
      else
        out[rel] = `${(stat.mode & 0o777).toString(8)} ${createHash('sha256')
          .update(readFileSync(join(dir, rel)))
          .digest('hex')}`;
    }
  };
  if (existsSync(dir)) walk('');
  return out;
}

export function commitFile(cwd: string, path: string, content: string, extra: Record<string, string> = {}): SpawnSyncReturns<string> {
  writeFiles(cwd, { [path]: content });
  gitIn(cwd, 'add', path);
  return gitRun(cwd, ['commit', '-q', '-m', `edit ${path}`], extra);
}
