import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Real git repositories in temp dirs for integration tests. Nothing below git is faked. */

export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = join(PROJECT_ROOT, 'bin', 'airspace-hooks.js');

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

export function commitAll(cwd: string, message: string, date?: string): string {
  gitIn(cwd, 'add', '-A');
  const env: Record<string, string> = date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {};
  sh(cwd, 'git', ['commit', '-q', '--no-verify', '-m', message], env);
  return gitIn(cwd, 'rev-parse', 'HEAD');
}

/** A new repository with an initial commit of `files` on `main`. */
export function initRepo(files: Record<string, string | Buffer> = { 'README.md': '# demo\n' }, dir = tempDir()): string {
  mkdirSync(dir, { recursive: true });
  gitIn(dir, 'init', '-q', '-b', 'main');
  writeFiles(dir, files);
  if (Object.keys(files).length > 0) commitAll(dir, 'initial');
  return dir;
}

/** A bare remote seeded from `files`, plus `clones` clones of it; returns their paths. */
export function remoteWithClones(files: Record<string, string | Buffer>, clones = 2): { remote: string; clones: string[]; root: string } {
  const root = tempDir();
  const seed = initRepo(files, join(root, 'seed'));
  const remote = join(root, 'remote.git');
  gitIn(root, 'init', '-q', '--bare', '-b', 'main', remote);
  gitIn(seed, 'remote', 'add', 'origin', remote);
  gitIn(seed, 'push', '-q', 'origin', 'main');
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
 */
export function userStateFingerprint(worktree: string): string {
  const hash = createHash('sha256');
  const gitDir = gitIn(worktree, 'rev-parse', '--absolute-git-dir');
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
  hash.update(spawnSync('git', ['symbolic-ref', '-q', 'HEAD'], { cwd: worktree, env: testEnv(), encoding: 'utf8' }).stdout);
  hash.update(spawnSync('git', ['rev-parse', '-q', '--verify', 'HEAD'], { cwd: worktree, env: testEnv(), encoding: 'utf8' }).stdout);
  return hash.digest('hex');
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
  const link = join(dir, 'airspace-hooks');
  if (!existsSync(link)) {
    try {
      symlinkSync(BIN, link);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return `${dir}:${process.env.PATH ?? ''}`;
}
