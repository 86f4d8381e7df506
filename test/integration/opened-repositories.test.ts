import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configFiles } from '../../src/git/config-files.js';
import { OpenedRepositories } from '../../src/resident/opened-repositories.js';
import { openRepository } from '../../src/run/open-repository.js';
import { commitAll, gitIn, initRepo, removeDir, sh, tempDir, writeFiles } from '../helpers/temp-repo.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) removeDir(dir);
});

/**
 * One OpenedRepositories over a real repository, counting the openings that ran git. `afterGit`
 * runs right after a live opening's git, before it returns (a file that moves meanwhile).
 */
function openings(cwd: string) {
  const openedRepositories = new OpenedRepositories();
  let live = 0;
  let afterGit: (() => void) | null = null;
  const env = { ...process.env };
  const open = (at = cwd, options: { inheritRepoEnv?: boolean } = {}, withEnv: NodeJS.ProcessEnv = env) =>
    openedRepositories.open(
      at,
      options,
      withEnv,
      async () => {
        live += 1;
        const opened = await openRepository(at, options);
        afterGit?.();
        afterGit = null;
        return opened;
      },
      (repo) => configFiles(repo.toplevel, repo.gitDir, repo.commonDir, withEnv, options.inheritRepoEnv === true),
    );
  const whileLive = (change: () => void) => {
    afterGit = change;
  };
  return { open, live: () => live, env, whileLive };
}

/** Runs `body` with `vars` in process.env, as the resident runs a question under its asker's environment. */
async function withEnv<T>(vars: Record<string, string>, body: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  Object.assign(process.env, vars);
  try {
    return await body();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** Opened twice to be remembered (the first lists git's configuration files, the second is stamped before it runs), then answered. */
async function warmed(o: ReturnType<typeof openings>, ...args: Parameters<ReturnType<typeof openings>['open']>) {
  await o.open(...args);
  await o.open(...args);
  const before = o.live();
  const opened = await o.open(...args);
  expect(o.live()).toBe(before);
  return opened;
}

describe('the resident remembers a run opening its repository (rev-parse and configuration)', () => {
  it('answers again while nothing it read moved, and opens live after a commit, a checkout, a config change or our config file', async () => {
    const repo = initRepo({ 'a.txt': 'a\n' });
    made.push(repo);
    const o = openings(repo);
    const first = await warmed(o);
    expect(first.repo.branch).toBe('main');

    // git writes in the main worktree's .git directory all the time (a status takes index.lock,
    // a merge leaves ORIG_HEAD): nothing the opening read, so it still answers.
    gitIn(repo, 'status', '--porcelain');
    writeFileSync(join(repo, '.git', 'ORIG_HEAD'), `${first.repo.head}\n`);
    const live = o.live();
    expect((await o.open()).repo.head).toBe(first.repo.head);
    expect(o.live()).toBe(live);

    // A commit moves the branch's ref: the next opening runs git and sees the new HEAD.
    writeFiles(repo, { 'a.txt': 'b\n' });
    const head = commitAll(repo, 'second');
    const afterCommit = await o.open();
    expect(afterCommit.repo.head).toBe(head);
    expect(afterCommit.repo.head).not.toBe(first.repo.head);

    // A checkout of another branch at the same commit: only HEAD's file moves.
    await warmed(o);
    gitIn(repo, 'checkout', '-q', '-b', 'other');
    expect((await o.open()).repo.branch).toBe('other');

    // git's configuration (core.hooksPath) changes where the hooks run from.
    await warmed(o);
    gitIn(repo, 'config', 'core.hooksPath', 'elsewhere-hooks');
    expect((await o.open()).repo.hooksDir).toBe(join(repo, 'elsewhere-hooks'));

    // Our configuration file at the top level.
    const before = await warmed(o);
    expect(before.config.hooks['pre-commit'].mode).not.toBe('off');
    writeFileSync(join(repo, '.airspacerc.json'), JSON.stringify({ hooks: { 'pre-commit': { mode: 'off' } } }));
    expect((await o.open()).config.hooks['pre-commit'].mode).toBe('off');

    // A detached HEAD is a commit in HEAD's own file.
    await warmed(o);
    gitIn(repo, 'checkout', '-q', '--detach');
    const detached = await o.open();
    expect(detached.repo.branch).toBeNull();
    expect(detached.repo.head).toBe(head);
  });

  it("lists git's configuration files again on another branch: an includeIf onbranch file is stamped there", async () => {
    const repo = initRepo({ 'a.txt': 'a\n' });
    made.push(repo);
    const included = join(repo, '.git', 'other.gitconfig');
    writeFileSync(included, '[core]\n\thooksPath = other-hooks\n');
    gitIn(repo, 'config', 'includeIf.onbranch:other.path', included);
    const o = openings(repo);
    expect((await warmed(o)).repo.hooksDir).toBe(join(repo, '.git', 'hooks'));
    gitIn(repo, 'checkout', '-q', '-b', 'other');
    expect((await warmed(o)).repo.hooksDir).toBe(join(repo, 'other-hooks'));
    // The file only this branch includes changes: the opening runs git again.
    writeFileSync(included, '[core]\n\thooksPath = third-hooks\n');
    expect((await o.open()).repo.hooksDir).toBe(join(repo, 'third-hooks'));
  });

  it('a branch moved in packed-refs alone, and a linked worktree, are followed too', async () => {
    const repo = initRepo({ 'a.txt': 'a\n' });
    made.push(repo);
    const base = gitIn(repo, 'rev-parse', 'HEAD').trim();
    writeFiles(repo, { 'a.txt': 'b\n' });
    const next = commitAll(repo, 'second');
    gitIn(repo, 'pack-refs', '--all');
    const o = openings(repo);
    expect((await warmed(o)).repo.head).toBe(next);
    // The branch is packed (no loose ref file) and moves in packed-refs alone, as git's own ref
    // transactions may leave it: only that file says so.
    const packed = join(repo, '.git', 'packed-refs');
    writeFileSync(packed, readFileSync(packed, 'utf8').replace(`${next} refs/heads/main`, `${base} refs/heads/main`));
    expect((await o.open()).repo.head).toBe(base);

    const linked = `${repo}-linked`;
    made.push(linked);
    gitIn(repo, 'worktree', 'add', '-q', '-b', 'linked', linked);
    const w = openings(linked);
    const opened = await warmed(w);
    expect(opened.repo.toplevel).toBe(linked);
    // A linked worktree's .git is a file naming its git dir: rewritten (as `git worktree repair`
    // does), the opening runs git again.
    const pointer = readFileSync(join(linked, '.git'), 'utf8');
    writeFileSync(join(linked, '.git'), pointer);
    const before = w.live();
    expect((await w.open()).repo.gitDir).toBe(opened.repo.gitDir);
    expect(w.live()).toBe(before + 1);
    await warmed(w);
    writeFiles(linked, { 'a.txt': 'linked\n' });
    const moved = commitAll(linked, 'linked work');
    expect((await w.open()).repo.head).toBe(moved);
  });

  it('stamps what git would read next: an absent include, shallow, and a file that moved while git ran', async () => {
    const repo = initRepo({ 'a.txt': 'a\n' });
    made.push(repo);
    const o = openings(repo);
    // An include whose file does not exist yet: git lists no file for it, but would read it.
    gitIn(repo, 'config', 'include.path', 'extra.gitconfig');
    await warmed(o);
    writeFileSync(join(repo, '.git', 'extra.gitconfig'), '[core]\n\thooksPath = extra-hooks\n');
    expect((await o.open()).repo.hooksDir).toBe(join(repo, 'extra-hooks'));

    // A shallow file makes the repository shallow.
    expect((await warmed(o)).repo.isShallow).toBe(false);
    writeFileSync(join(repo, '.git', 'shallow'), `${gitIn(repo, 'rev-parse', 'HEAD').trim()}\n`);
    expect((await o.open()).repo.isShallow).toBe(true);

    // Our configuration changes right after the opening read it: that opening is not remembered.
    await warmed(o);
    rmSync(join(repo, '.git', 'shallow'));
    o.whileLive(() => writeFileSync(join(repo, '.airspacerc.json'), JSON.stringify({ hooks: { 'pre-commit': { mode: 'off' } } })));
    const during = o.live();
    expect((await o.open()).config.hooks['pre-commit'].mode).not.toBe('off');
    expect(o.live()).toBe(during + 1);
    const live = o.live();
    expect((await o.open()).config.hooks['pre-commit'].mode).toBe('off');
    expect(o.live()).toBe(live + 1);
  });

  it("lists a new repository's files when one takes a removed worktree's path, and a hook's GIT_DIR repository's", async () => {
    const repo = initRepo({ 'a.txt': 'a\n' });
    made.push(repo);
    const linked = `${repo}-again`;
    made.push(linked);
    gitIn(repo, 'worktree', 'add', '-q', '-b', 'again', linked);
    const o = openings(linked);
    await warmed(o);
    // The worktree is removed without git (no prune) and a clone is made where it was.
    rmSync(linked, { recursive: true, force: true });
    gitIn(repo, 'clone', '-q', repo, linked);
    const clone = await o.open();
    expect(clone.repo.commonDir).toBe(join(linked, '.git'));
    await warmed(o);
    gitIn(linked, 'config', 'core.hooksPath', 'clone-hooks');
    expect((await o.open()).repo.hooksDir).toBe(join(linked, 'clone-hooks'));

    // A work tree whose git dir is elsewhere, named by a hook's GIT_DIR and GIT_WORK_TREE.
    const work = tempDir('airspace-opened-work-');
    made.push(work);
    const gitDir = join(work, '..', `${basename(work)}.git`);
    made.push(gitDir);
    gitIn(work, 'init', '-q', '--separate-git-dir', gitDir);
    rmSync(join(work, '.git'));
    writeFiles(work, { 'w.txt': 'w\n' });
    const vars = { GIT_DIR: gitDir, GIT_WORK_TREE: work };
    const hook = openings(work);
    const asHook = () => withEnv(vars, () => hook.open(work, { inheritRepoEnv: true }, { ...hook.env, ...vars }));
    sh(work, 'git', ['add', 'w.txt'], vars);
    sh(work, 'git', ['commit', '-q', '-m', 'w'], vars);
    sh(work, 'git', ['config', 'include.path', 'inc.gitconfig'], vars);
    writeFileSync(join(gitDir, 'inc.gitconfig'), '[core]\n\thooksPath = inc-hooks\n');
    await asHook();
    await asHook();
    expect((await asHook()).repo.hooksDir).toBe(join(work, 'inc-hooks'));
    expect(hook.live()).toBe(2);
    writeFileSync(join(gitDir, 'inc.gitconfig'), '[core]\n\thooksPath = other-inc-hooks\n');
    expect((await asHook()).repo.hooksDir).toBe(join(work, 'other-inc-hooks'));
  });

  it('never answers a run below the top level, and keeps environments apart', async () => {
    const repo = initRepo({ 'src/a.txt': 'a\n' });
    made.push(repo);
    const o = openings(repo);
    const below = join(repo, 'src');
    for (let i = 0; i < 3; i++) await o.open(below);
    expect(o.live()).toBe(3);
    // A nested repository below the top level is no file a stamp covers: a run there finds it.
    mkdirSync(join(below, 'nested'), { recursive: true });
    initRepo({ 'n.txt': 'n\n' }, join(below, 'nested'));
    expect((await o.open(join(below, 'nested'))).repo.toplevel).toBe(join(below, 'nested'));

    await warmed(o);
    const live = o.live();
    // Another environment (what git reads: GIT_* and HOME) is another key, opened live.
    await o.open(repo, {}, { ...o.env, GIT_CEILING_DIRECTORIES: '/nowhere' });
    expect(o.live()).toBe(live + 1);
    // Repository-selecting variables count only when the run inherits them (a hook's).
    await o.open(repo, {}, { ...o.env, GIT_INDEX_FILE: join(repo, '.git', 'index.lock') });
    expect(o.live()).toBe(live + 1);
    const lock = { GIT_INDEX_FILE: join(repo, '.git', 'index.lock') };
    const inherited = await withEnv(lock, () => o.open(repo, { inheritRepoEnv: true }, { ...o.env, ...lock }));
    expect(o.live()).toBe(live + 2);
    expect(inherited.repo.indexFile).toBe(lock.GIT_INDEX_FILE);
    // Another index a hook inherits is another key: the opening names that index.
    const other = { GIT_INDEX_FILE: join(repo, '.git', 'other-index') };
    for (let i = 0; i < 3; i++) await withEnv(lock, () => o.open(repo, { inheritRepoEnv: true }, { ...o.env, ...lock }));
    const second = await withEnv(other, () => o.open(repo, { inheritRepoEnv: true }, { ...o.env, ...other }));
    expect(second.repo.indexFile).toBe(other.GIT_INDEX_FILE);
  });
});
