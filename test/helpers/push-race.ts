import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { gitIn, pathWithCli, testEnv } from './temp-repo.js';

/** The pushes of the announce tests (test/integration/hooks-push-*.test.ts): real `git push` processes that run the installed hooks. */
export interface Pushed {
  readonly status: number | null;
  readonly stderr: string;
}

const PATH = pathWithCli();

/** `git push` in `cwd` (default: the current branch to origin, upstream set), with the CLI on PATH; resolves when it exits. */
export function pushAsync(cwd: string, args: readonly string[] = ['-u', 'origin', 'HEAD'], env: Record<string, string> = {}): Promise<Pushed> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['push', ...args], { cwd, env: testEnv({ PATH, ...env }), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

/** Resolves once `file` exists (a remote hook's signal), or throws after `ms`. */
export async function waitFor(file: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!existsSync(file)) {
    if (Date.now() > until) throw new Error(`${file} did not appear within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The beacon documents on the remote published for `agent` (every ref it stands under). */
export function beaconsOf(remote: string, agent: string): Record<string, unknown>[] {
  const refs = gitIn(remote, 'for-each-ref', '--format=%(refname)', 'refs/airspace/').split('\n').filter(Boolean);
  return refs.map((ref) => JSON.parse(gitIn(remote, 'show', `${ref}:beacon.json`)) as Record<string, unknown>).filter((beacon) => beacon.agent === agent);
}
