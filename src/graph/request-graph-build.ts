import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isLockLive, readBuildLock } from './graph-build-lock.js';
import { readGraphBuildStatus, type GraphBuildStatus } from './graph-build-status.js';

/**
 * Starts the background graph build unless one is running: `node <bin> graph build` in the
 * worktree, detached, stdio ignored, so the hook that asked returns at once and the build
 * survives it. The builder takes the lock itself (graph-build-lock.ts), so two requests racing
 * start at most one build; the loser exits at once. Never throws: a build that cannot start
 * leaves the dependency channel as it was.
 *
 * `AIRSPACE_GRAPH_BACKGROUND=off` disables it (test suites, CI jobs that must leave no process).
 */
export interface GraphBuildRequest {
  readonly toplevel: string;
  readonly commonDir: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly now?: number;
}

export type GraphBuildRequestResult =
  | { readonly started: true; readonly status: GraphBuildStatus }
  | { readonly started: false; readonly reason: 'running' | 'disabled' | 'no-cli' | 'spawn-failed'; readonly status: GraphBuildStatus };

export function requestGraphBuild(request: GraphBuildRequest): GraphBuildRequestResult {
  const env = request.env ?? process.env;
  const now = request.now ?? Date.now();
  const status = readGraphBuildStatus(request.commonDir, now);
  if (status.state === 'building') return { started: false, reason: 'running', status };
  if (env.AIRSPACE_GRAPH_BACKGROUND === 'off') return { started: false, reason: 'disabled', status };
  const bin = cliEntry();
  if (bin === undefined) return { started: false, reason: 'no-cli', status };
  try {
    // It reads nothing until this process has exited: a hook's cores stay the hook's.
    const child = spawn(process.execPath, [bin, 'graph', 'build', '--background', '--after-pid', String(process.pid)], {
      cwd: request.toplevel,
      detached: true,
      stdio: 'ignore',
      // The build must not inherit the index git is writing in this hook (GIT_INDEX_FILE etc.).
      env: withoutGitVariables(env),
    });
    child.on('error', () => undefined);
    child.unref();
    return { started: true, status: { state: 'building', pid: child.pid ?? 0, startedAt: now, done: 0, total: 0 } };
  } catch {
    return { started: false, reason: 'spawn-failed', status };
  }
}

/** True while a build holds the lock (cheap: one small file read and a signal-0). */
export function isGraphBuildRunning(commonDir: string, now: number = Date.now()): boolean {
  const lock = readBuildLock(commonDir);
  return lock !== undefined && isLockLive(lock, now);
}

function withoutGitVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('GIT_')));
}

let entry: string | null | undefined;

/** bin/airspace-hooks.js of the package this code runs from (dist/, the hook bundle, or src/ in tests). */
function cliEntry(): string | undefined {
  if (entry !== undefined) return entry ?? undefined;
  entry = null;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 5; depth++) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name;
        const bin = join(dir, 'bin', 'airspace-hooks.js');
        if (name === 'airspace-hooks' && existsSync(bin)) entry = bin;
      } catch {
        // not ours
      }
      break;
    }
    dir = dirname(dir);
  }
  return entry ?? undefined;
}
