import { spawn } from 'node:child_process';
import { closeSync, openSync, statSync } from 'node:fs';
import { loadConfig } from '../config/load-config.js';
import { isLockLive, readLock } from '../fs/lock-file.js';
import { resolveRepo } from '../git/resolve-repo.js';
import { packageBin, packageRoot } from './resident-identity.js';
import { ensurePrivateDir, findWorktree, residentPaths } from './resident-paths.js';
import { residentWanted } from './resident-wanted.js';

/** The log is appended to across restarts; past this size a start begins it afresh. */
const MAX_LOG_BYTES = 1024 * 1024;

/**
 * Variables git sets for one command (a hook's index, prefix, reflog message, identity) or that
 * point git at one repository: the resident serves every worktree of the repository for hours, so
 * it must not keep the first hook's. Each question brings its asker's own (src/resident/run-queue.ts).
 */
const PER_COMMAND_ENV =
  /^(GIT_(DIR|WORK_TREE|INDEX_FILE|PREFIX|COMMON_DIR|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|NAMESPACE|REFLOG_ACTION|EDITOR|AUTHOR_\w+|COMMITTER_\w+|EXEC_PATH|QUARANTINE_PATH|PUSH_OPTION_\w+)|AIRSPACE_HOOKS_BUDGET_MS)$/;

/**
 * Starts the repository's resident process in the background when none runs and nothing forbids
 * it (CI, AIRSPACE_RESIDENT=off, `resident.enabled: false`): detached in its own session, its
 * output in a log file under the git dir, not waited for. Never throws: a resident that cannot
 * start only means the next hook takes the one-shot path again.
 */
export async function startResidentIfWanted(cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (!residentWanted(env)) return false;
  try {
    // Found from the file system when plain (findWorktree): no `git rev-parse` after a hook that
    // just ran one, only to learn that `resident.enabled` is false.
    const repo = findWorktree(cwd, env) ?? (await resolveRepo(cwd));
    const config = await loadConfig(repo.toplevel);
    if (!config.resident.enabled) return false;
    const paths = residentPaths(repo.commonDir);
    const holder = readLock(paths.lock);
    if (holder !== undefined && isLockLive(holder, Date.now(), Number.MAX_SAFE_INTEGER)) return false;
    const root = packageRoot();
    if (root === null) return false;
    ensurePrivateDir(paths.dir);
    const log = openSync(paths.log, logTooLong(paths.log) ? 'w' : 'a', 0o600);
    try {
      const child = spawn(process.execPath, [packageBin(root), 'resident', 'serve'], {
        cwd: repo.toplevel,
        detached: true,
        stdio: ['ignore', log, log],
        env: residentEnvironment(env),
      });
      child.on('error', () => undefined);
      child.unref();
    } finally {
      closeSync(log);
    }
    return true;
  } catch {
    return false;
  }
}

function residentEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (!PER_COMMAND_ENV.test(name)) clean[name] = value;
  return clean;
}

function logTooLong(path: string): boolean {
  try {
    return statSync(path).size > MAX_LOG_BYTES;
  } catch {
    return false;
  }
}
