import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { userConfigFiles } from '../config/load-config.js';
import type { openRepository } from '../run/open-repository.js';
import { REPO_ENV } from '../git/exec-git.js';
import { listStably, stampFiles } from './stamp-files.js';

type Opened = Awaited<ReturnType<typeof openRepository>>;

/** Environments the resident remembers an opening for (each asker's environment is a key). */
const MAX_KEYS = 16;

/**
 * The first step of every run in the resident (src/run/open-repository.ts: one `rev-parse`, then
 * the configuration) answered from an earlier run's, when every file that step reads is as it was
 * before that run's `rev-parse` began — docs/decisions/resident.md, "The edit check: the opening
 * remembered". What `rev-parse` prints for a run at the top level of a worktree rests on the
 * environment (the key), on git's configuration files (core.hooksPath, core.bare, includes: the
 * list src/git/config-files.ts reads from git), and on a handful of files of the worktree and its
 * git dir: `.git` itself (a linked worktree's pointer), HEAD and the ref it names, packed-refs,
 * `shallow`, `commondir`. Our configuration rests on its files at the top level. Each is compared
 * by its stat (src/resident/stamp-files.ts), so no watcher event is waited for: a commit, a
 * checkout or a fetch that moves HEAD or packed-refs changes a stamp before its event arrives.
 * The list of configuration files belongs to one repository and one HEAD (an `includeIf
 * "onbranch:"` file is one branch's), and names every include's target, present or not. A run below
 * the top level (a nested repository there is no file any stamp covers), a branch without commits
 * (a second git call) and a reftable repository (refs in files no stamp follows) always open live.
 */
export class OpenedRepositories {
  private readonly known = new Map<string, Known>();

  async open(
    cwd: string,
    options: { readonly inheritRepoEnv?: boolean },
    env: NodeJS.ProcessEnv,
    live: () => Promise<Opened>,
    listConfigFiles: (repo: Opened['repo']) => Promise<string[]>,
  ): Promise<Opened> {
    const key = openingKey(cwd, options.inheritRepoEnv === true, env);
    const known = this.known.get(key);
    const list = known?.list !== undefined && stampFiles([...known.list.files, known.list.head]) === known.list.stamps ? known.list : undefined;
    if (known?.opened !== undefined && list !== undefined && list.repo === repoKey(known.opened.value)) {
      const resting = restingOn(known.opened.value, list.files);
      if (resting !== null && stampResting(resting) === known.opened.stamps) return known.opened.value;
    }
    // Stamped before the live opening reads anything: a file that moves while it runs keeps it from being remembered.
    const planned = known?.last !== undefined && list !== undefined && list.repo === repoKey(known.last) ? restingOn(known.last, list.files) : null;
    const before = planned === null ? null : stampResting(planned);
    const opened = await live();
    const atTop = resolve(cwd) === resolve(opened.repo.toplevel);
    // A list belongs to the repository it was listed for: another one at the same path (a worktree
    // removed and a clone made there) has other configuration files.
    const entry: Known = { last: opened, ...(list !== undefined && list.repo === repoKey(opened) ? { list } : {}) };
    if (atTop && opened.repo.head !== null) {
      entry.list ??= await stableList(() => listConfigFiles(opened.repo), opened);
      const resting = entry.list === undefined ? null : restingOn(opened, entry.list.files);
      if (resting !== null && planned !== null && before !== null && JSON.stringify(resting) === JSON.stringify(planned) && stampResting(resting) === before) {
        entry.opened = { value: opened, stamps: before };
      }
    }
    this.known.delete(key);
    this.known.set(key, entry);
    if (this.known.size > MAX_KEYS) this.known.delete(this.known.keys().next().value as string);
    return opened;
  }
}

interface Known {
  /**
   * git's configuration files as git listed them, and their stamps then with HEAD's: an
   * `includeIf "onbranch:…"` names another file on another branch, so a checkout lists them again.
   */
  list?: { readonly files: readonly string[]; readonly repo: string; readonly head: string; readonly stamps: string };
  /** The latest live opening: where to look before the next one. */
  last: Opened;
  /** An opening that may answer while its files stamp as `stamps`. */
  opened?: { readonly value: Opened; readonly stamps: string };
}

/** The configuration list of `opened`, stamped with its HEAD's file; none when git's two answers differed (as WarmAirspace.configFilesOf). */
async function stableList(ask: () => Promise<string[]>, opened: Opened): Promise<Known['list']> {
  const head = join(opened.repo.gitDir, 'HEAD');
  const listed = await listStably(ask, [head]);
  return listed.stable ? { files: listed.files, repo: repoKey(opened), head, stamps: listed.stamps } : undefined;
}

/** Which repository an opening found: its top level, git dir and common dir. */
function repoKey(opened: Opened): string {
  return JSON.stringify([opened.repo.toplevel, opened.repo.gitDir, opened.repo.commonDir]);
}

/** The files an opening read, the worktree's `.git`, and what HEAD and its ref say (a rewrite within one tick of the clock keeps a stamp). */
interface Resting {
  readonly files: readonly string[];
  readonly dotGit: string;
  readonly says: string;
}

/**
 * The files' stamps, and what `.git` is: a main worktree's is a directory git writes in all the
 * time (`index.lock`, ORIG_HEAD — its mtime says nothing about the opening), so only that it is
 * still the same directory; a linked worktree's is a file naming its git dir, stamped whole.
 */
function stampResting(resting: Resting): string {
  let dotGit: string;
  try {
    const stat = lstatSync(resting.dotGit, { bigint: true });
    dotGit = stat.isDirectory() ? `directory ${stat.ino}` : stampFiles([resting.dotGit]);
  } catch {
    dotGit = 'none';
  }
  return `${stampFiles(resting.files)}:${dotGit}:${resting.says}`;
}

/**
 * Every file the opening read, besides the configuration list; null when HEAD is not a plain
 * branch or commit (a symbolic ref to a symbolic ref: a file the stamps would not follow).
 */
function restingOn(opened: Opened, configFiles: readonly string[]): Resting | null {
  const { toplevel, gitDir, commonDir } = opened.repo;
  // reftable (git 2.45 and later): HEAD always names `refs/heads/.invalid`, and refs live in files no stamp here follows.
  if (existsSync(join(commonDir, 'reftable'))) return null;
  const head = readSmall(join(gitDir, 'HEAD'));
  if (head === null) return null;
  const files = [
    ...configFiles,
    ...userConfigFiles(toplevel),
    join(gitDir, 'HEAD'),
    join(gitDir, 'commondir'),
    join(commonDir, 'packed-refs'),
    join(commonDir, 'shallow'),
  ];
  const symbolic = /^ref: (refs\/heads\/[^\n]+)\n?$/.exec(head);
  let says = head;
  if (symbolic !== null) {
    const ref = join(commonDir, symbolic[1]!);
    const target = readSmall(ref);
    if (target?.startsWith('ref:') === true) return null;
    files.push(ref);
    says += `\0${target ?? ''}`;
  } else if (!/^[0-9a-f]{40,64}\n?$/.test(head)) return null;
  return { files, dotGit: join(toplevel, '.git'), says };
}

function readSmall(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').slice(0, 4096);
  } catch {
    return null;
  }
}

/**
 * The cwd and everything in the environment git's discovery and configuration read: every GIT_* it
 * is given (the repository-selecting ones, exec-git.ts REPO_ENV, only when the run inherits them),
 * HOME, XDG_CONFIG_HOME, PATH.
 */
function openingKey(cwd: string, inheritRepoEnv: boolean, env: NodeJS.ProcessEnv): string {
  const read = Object.entries(env)
    .filter(
      ([name, value]) =>
        value !== undefined &&
        (name.startsWith('GIT_') ? inheritRepoEnv || !REPO_ENV.includes(name) : name === 'HOME' || name === 'XDG_CONFIG_HOME' || name === 'PATH'),
    )
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([resolve(cwd), inheritRepoEnv, read]);
}
