import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, realpathSync, statSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/**
 * Where a repository's resident process lives, found with the file system alone: the client side
 * runs before anything else in a hook, and a `git rev-parse` would cost a process spawn.
 *
 * Everything sits in `<common dir>/airspace/resident/` (mode 0700): the lock, the info file that
 * says who serves and where, the log, and the socket — unless the socket's path would not fit a
 * Unix socket address (sun_path: 108 bytes on Linux, 104 on macOS, including the final NUL). Then it
 * goes to a per-user 0700 directory under the temp dir, named by a hash of the common dir, and the
 * info file says so.
 */

/** Longest socket path we bind: macOS's 104-byte sun_path minus its NUL, with a margin. */
const MAX_SOCKET_PATH_BYTES = 100;

export interface ResidentPaths {
  readonly commonDir: string;
  readonly dir: string;
  readonly lock: string;
  readonly info: string;
  readonly log: string;
  /** The socket we bind when we are the resident (the client reads the path from the info file). */
  readonly socket: string;
}

export function residentPaths(commonDir: string): ResidentPaths {
  const dir = residentDir(commonDir);
  const near = join(dir, 'socket');
  return {
    commonDir,
    dir,
    lock: join(dir, 'resident.lock'),
    info: residentInfoFile(commonDir),
    log: join(dir, 'resident.log'),
    socket: Buffer.byteLength(near) <= MAX_SOCKET_PATH_BYTES ? near : shortSocketPath(commonDir),
  };
}

/**
 * The info file alone: what the client reads (src/resident/ask-resident.ts). It takes the socket's
 * path from there, so the client never computes one and never loads node:crypto (~5 ms of an
 * edit check's start, OpenSSL's).
 */
export function residentInfoFile(commonDir: string): string {
  return join(residentDir(commonDir), 'resident.json');
}

function residentDir(commonDir: string): string {
  return join(commonDir, 'airspace', 'resident');
}

function shortSocketPath(commonDir: string): string {
  const id = createHash('sha256').update(commonDir).digest('hex').slice(0, 20);
  return join(userTempDir(), `${id}.sock`);
}

/** `<tmp>/airspace-hooks-<uid>`: short, and one per user so nobody else can sit in it. */
export function userTempDir(): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  return join(tmpdir(), `airspace-hooks-${uid}`);
}

/**
 * Creates `path` (and its parents) and makes sure it is a directory of ours that only we can
 * enter: in a shared temp dir another user could have made it first, and a socket in a directory
 * they own is a socket they can replace. Throws when it cannot be made private.
 */
export function ensurePrivateDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  const stat = lstatSync(path);
  if (!stat.isDirectory()) throw new Error(`${path} is not a directory`);
  const uid = typeof process.getuid === 'function' ? process.getuid() : stat.uid;
  if (stat.uid !== uid) throw new Error(`${path} belongs to another user`);
  if ((stat.mode & 0o077) !== 0) chmodSync(path, 0o700);
}

/**
 * The common git dir of the worktree at or above `cwd`, read from `.git` (a directory, or a file
 * `gitdir: <dir>` whose `commondir` names the shared one), or from GIT_DIR / GIT_COMMON_DIR as git
 * sets them for a hook. Null whenever the answer is not plain: the caller then takes the ordinary
 * path, which asks git.
 */
export function findCommonDir(cwd: string, env: NodeJS.ProcessEnv = process.env): string | null {
  try {
    if (env.GIT_COMMON_DIR) return resolve(cwd, env.GIT_COMMON_DIR);
    if (env.GIT_DIR) return commonDirOf(resolve(cwd, env.GIT_DIR));
    for (let dir = resolve(cwd); ; dir = dirname(dir)) {
      const dotGit = join(dir, '.git');
      const found = gitDirAt(dotGit);
      if (found !== undefined) return found === null ? null : commonDirOf(found);
      if (dirname(dir) === dir) return null;
    }
  } catch {
    return null;
  }
}

/**
 * The worktree at or above `cwd` and its common git dir, from the file system alone, when git's
 * environment names no other (no GIT_DIR, GIT_WORK_TREE, GIT_COMMON_DIR): the edit check's way to
 * reach the resident without a `git rev-parse` of its own. The top level has its symlinks
 * resolved, as git prints it. Null whenever the answer is not plain: the caller asks git.
 */
export function findWorktree(cwd: string, env: NodeJS.ProcessEnv = process.env): { readonly toplevel: string; readonly commonDir: string } | null {
  if (env.GIT_DIR || env.GIT_WORK_TREE || env.GIT_COMMON_DIR) return null;
  try {
    for (let dir = resolve(cwd); ; dir = dirname(dir)) {
      const found = gitDirAt(join(dir, '.git'));
      if (found !== undefined) return found === null ? null : { toplevel: realpathSync(dir), commonDir: commonDirOf(found) };
      if (dirname(dir) === dir) return null;
    }
  } catch {
    return null;
  }
}

/** The git dir `.git` points at; undefined when there is no `.git` here, null when it is unreadable. */
function gitDirAt(dotGit: string): string | null | undefined {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(dotGit);
  } catch {
    return undefined;
  }
  if (stat.isDirectory()) return dotGit;
  const text = readFileSync(dotGit, 'utf8').slice(0, 4096);
  const match = /^gitdir: (.+)$/m.exec(text);
  if (!match) return null;
  const target = match[1]!.trim();
  return isAbsolute(target) ? target : resolve(dirname(dotGit), target);
}

/** A linked worktree's git dir names the shared one in its `commondir` file. */
function commonDirOf(gitDir: string): string {
  try {
    const text = readFileSync(join(gitDir, 'commondir'), 'utf8').trim();
    return isAbsolute(text) ? text : resolve(gitDir, text);
  } catch {
    return gitDir;
  }
}
