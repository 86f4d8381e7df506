import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Real git repositories in temp dirs for integration tests. Nothing below git is faked. */

export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = join(PROJECT_ROOT, 'bin', 'airspace-hooks.js');
export const READY_BIN = join(PROJECT_ROOT, 'bin', 'airspace-hooks-ready');

/** A fixed identity and a clean git environment: tests never read the developer's git config. */
export function testEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('GIT_')) delete env[key];
  return {
    ...env,
    GIT_AUTHOR_NAME: 'Test Agent',
    GIT_AUTHOR_EMAIL: 'agent@example.invalid',
    GIT_COMMITTER_NAME: 'Test Agent',
    GIT_COMMITTER_EMAIL: 'agent@example.invalid',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(tmpdir(), 'airspace-test-empty-gitconfig'),
    NO_COLOR: '1',
    CI: '',
    // Hooks keep their budgets; on a loaded test machine a verdict test must not depend on them.
    // The budget tests set their own (test/integration/hook-budget.test.ts).
    AIRSPACE_HOOKS_BUDGET_MS: '120000',
    ...extra,
  };
}

writeFileSync(join(tmpdir(), 'airspace-test-empty-gitconfig'), '[init]\n\tdefaultBranch = main\n[protocol "file"]\n\tallow = always\n');

export function tempDir(prefix = 'airspace-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  // Retries ENOTEMPTY/EBUSY: a git process a hook started may still be writing into .git when a
  // suite's cleanup runs (seen once under load in hooks-coordinated); the directory goes either way.
  rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}

export function sh(cwd: string, command: string, args: readonly string[], env: Record<string, string> = {}): string {
  return execFileSync(command, args, { cwd, env: testEnv(env), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export function gitIn(cwd: string, ...args: string[]): string {
  return sh(cwd, 'git', args).replace(/\n$/, '');
}

export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/**
 * `git add -A` and `git commit`; the new commit's hash from commit's own summary line, printed in
 * full (`core.abbrev=no`), instead of a third `git rev-parse HEAD` process: a spawn from a test
 * worker costs ~20 ms of CPU, more than most of what these git commands do.
 */
export function commitAll(cwd: string, message: string, date?: string): string {
  gitIn(cwd, 'add', '-A');
  const env: Record<string, string> = date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {};
  const out = sh(cwd, 'git', ['-c', 'core.abbrev=no', '-c', 'color.ui=false', 'commit', '--no-verify', '--no-status', '-m', message], env);
  // "[main (root-commit) <hash>] subject", "[detached HEAD <hash>] subject".
  const summary = out.split('\n').find((line) => line.startsWith('['));
  const hash = summary && / ([0-9a-f]{64}|[0-9a-f]{40})\] /.exec(summary)?.[1];
  return hash || gitIn(cwd, 'rev-parse', 'HEAD');
}

/**
 * What `git init -q [--bare] -b main` writes, made by git itself once per git version (a folder
 * in the temp dir, like the empty gitconfig above) and copied: the same files (config, HEAD, hooks
 * samples, info/exclude), no absolute path among them, so a copy is the repository `git init`
 * would have made there, without a git process per repository.
 */
const initTemplates = new Map<'work' | 'bare', string>();
function initGitDir(gitDir: string, kind: 'work' | 'bare'): void {
  let template = initTemplates.get(kind);
  if (!template) {
    const version = execFileSync('git', ['--version'], { env: testEnv(), encoding: 'utf8' });
    const home = join(tmpdir(), `airspace-test-git-init-${createHash('sha256').update(version).digest('hex').slice(0, 12)}`);
    template = join(home, `${kind}.git`);
    if (!existsSync(join(template, 'HEAD'))) {
      // Made aside and renamed into place: a worker running beside this one sees all of it or none.
      const build = tempDir('airspace-test-git-init-');
      const made = join(build, 'made.git');
      if (kind === 'bare') gitIn(build, 'init', '-q', '--bare', '-b', 'main', made);
      else {
        gitIn(build, 'init', '-q', '-b', 'main', join(build, 'repo'));
        renameSync(join(build, 'repo', '.git'), made);
      }
      mkdirSync(home, { recursive: true });
      try {
        renameSync(made, template);
      } catch (error) {
        if (!['EEXIST', 'ENOTEMPTY'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
      }
      removeDir(build);
    }
    initTemplates.set(kind, template);
  }
  cpSync(template, gitDir, { recursive: true });
}

/** An empty repository in `dir` whose HEAD names `branch`, as `git init -q -b <branch> <dir>` makes it. */
export function initEmptyRepo(dir: string, branch = 'main'): void {
  mkdirSync(dir, { recursive: true });
  if (existsSync(join(dir, '.git'))) return void gitIn(dir, 'init', '-q', '-b', branch);
  initGitDir(join(dir, '.git'), 'work');
  if (branch !== 'main') writeFileSync(join(dir, '.git', 'HEAD'), `ref: refs/heads/${branch}\n`);
}

/** A new repository with an initial commit of `files` on `main`. */
export function initRepo(files: Record<string, string | Buffer> = { 'README.md': '# demo\n' }, dir = tempDir()): string {
  // A directory that is already a repository is re-initialised by git itself, as before.
  initEmptyRepo(dir);
  writeFiles(dir, files);
  if (Object.keys(files).length > 0) commitAll(dir, 'initial');
  return dir;
}

/** A bare remote seeded from `files`, plus `clones` clones of it; returns their paths. */
export function remoteWithClones(files: Record<string, string | Buffer>, clones = 2): { remote: string; clones: string[]; root: string } {
  const root = tempDir();
  const seed = initRepo(files, join(root, 'seed'));
  const remote = join(root, 'remote.git');
  initGitDir(remote, 'bare');
  // The seed is scaffolding (no test reads it): pushed to by path, no `remote add` process.
  gitIn(seed, 'push', '-q', remote, 'main');
  const paths: string[] = [];
  for (let i = 0; i < clones; i++) {
    const path = join(root, `clone-${i + 1}`);
    gitIn(root, 'clone', '-q', remote, path);
    paths.push(path);
  }
  return { remote, clones: paths, root };
}

/** Runs the built CLI (`npm run build` first) and returns its result without throwing. */
export function runCli(cwd: string, args: readonly string[], env: Record<string, string> = {}, input?: string): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [BIN, ...args], { cwd, env: testEnv(env), encoding: 'utf8', input, timeout: 120_000 });
}

/**
 * A fingerprint of everything a hook must never change: the index file, every working-tree file
 * (content and mode), HEAD, branches and stashes. Compare before/after a command.
 *
 * HEAD is its file, byte for byte (the branch it names, or the detached commit; with the refs
 * below that is what `symbolic-ref HEAD` and `rev-parse HEAD` print), and the git directory is
 * read from `.git` as git finds it: one git process per call instead of four.
 */
export function userStateFingerprint(worktree: string): string {
  const hash = createHash('sha256');
  const gitDir = gitDirOf(worktree);
  const index = join(gitDir, 'index');
  hash.update(existsSync(index) ? readFileSync(index) : Buffer.alloc(0));
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      if (name === '.git') continue;
      const full = join(dir, name);
      const stat = statSync(full, { throwIfNoEntry: false });
      if (!stat) continue;
      if (stat.isDirectory()) walk(full);
      else {
        hash.update(relative(worktree, full));
        hash.update(String(stat.mode));
        hash.update(readFileSync(full));
      }
    }
  };
  walk(worktree);
  const refs = spawnSync('git', ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads', 'refs/stash', 'refs/tags'], {
    cwd: worktree,
    env: testEnv(),
    encoding: 'utf8',
  }).stdout;
  hash.update(refs);
  hash.update(readFileSync(join(gitDir, 'HEAD')));
  return hash.digest('hex');
}

/** The git directory of a worktree's top level: `.git` itself, or the one its `gitdir:` file names (linked worktrees). */
function gitDirOf(worktree: string): string {
  const dotGit = join(worktree, '.git');
  const stat = statSync(dotGit, { throwIfNoEntry: false });
  if (stat?.isDirectory()) return dotGit;
  const pointer = stat?.isFile() ? /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1] : undefined;
  if (pointer && existsSync(join(resolve(worktree, pointer), 'HEAD'))) return resolve(worktree, pointer);
  return gitIn(worktree, 'rev-parse', '--absolute-git-dir');
}

/**
 * A PATH whose first entry holds an `airspace-hooks` link to this project's bin, as `npm i -g` would.
 * One directory per checkout: a shared one kept the first checkout's link, so the hooks in every
 * other clone's tests ran that checkout's CLI (seen: worktree tests running /work/main's build).
 */
export function pathWithCli(): string {
  // One folder per checkout: several worktrees of this project share /tmp, and a link made by
  // another checkout would run ITS code in our hook tests.
  const dir = join(tmpdir(), `airspace-test-bin-${createHash('sha256').update(PROJECT_ROOT).digest('hex').slice(0, 12)}`);
  mkdirSync(dir, { recursive: true });
  for (const [name, target] of [
    ['airspace-hooks', BIN],
    ['airspace-hooks-ready', READY_BIN],
  ] as const) {
    const link = join(dir, name);
    if (existsSync(link)) continue;
    try {
      symlinkSync(target, link);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return `${dir}:${process.env.PATH ?? ''}`;
}
