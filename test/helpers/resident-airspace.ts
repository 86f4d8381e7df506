import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { BIN, commitAll, gitIn, initRepo, runCli, tempDir, testEnv, writeFiles } from './temp-repo.js';

/**
 * The airspace the resident tests judge twice (once answered by a resident, once one-shot): a
 * repository `main` and a linked worktree `peer`, both with work in src/a.ts, and what they ask
 * a resident about its state.
 */

export const RESIDENT_ON = { AIRSPACE_RESIDENT: 'on' };
export const RESIDENT_OFF = { AIRSPACE_RESIDENT: 'off' };

export const numberedLines = (n: number): string => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;

/** main (uncommitted edit of line `mainLine`) and peer (committed edit of line `peerLine`); `cleanup` gets the root. */
export function mainAndPeer(prefix: string, mainLine: number, peerLine: number, cleanup: string[]): { main: string; peer: string } {
  const root = tempDir(prefix);
  cleanup.push(root);
  const main = initRepo({ 'src/a.ts': numberedLines(80), 'src/b.ts': numberedLines(10) }, join(root, 'main'));
  const peer = join(root, 'peer');
  gitIn(main, 'worktree', 'add', '-q', '-b', 'peer', peer);
  writeFiles(main, { 'src/a.ts': numberedLines(80).replace(`line ${mainLine}\n`, `line ${mainLine} main\n`) });
  writeFiles(peer, { 'src/a.ts': numberedLines(80).replace(`line ${peerLine}\n`, `line ${peerLine} peer\n`) });
  commitAll(peer, 'peer: work');
  return { main, peer };
}

export interface ResidentStatus {
  readonly state: string;
  readonly status: { readonly pid: number; readonly served: number; readonly subscribers: number };
  readonly info: { readonly pid: number };
}

/** `resident status --json` of `cwd`'s repository, asked through the packaged CLI. */
export function residentStatus(cwd: string): ResidentStatus {
  return JSON.parse(runCli(cwd, ['resident', 'status', '--json'], RESIDENT_ON).stdout) as ResidentStatus;
}

/** `resident serve` in the background for `cwd`'s repository, its pid pushed to `residents` (for the test's clean-up); resolves once it answers. */
export async function startResident(cwd: string, residents: number[], env: Record<string, string> = {}): Promise<number> {
  const child = spawn(process.execPath, [BIN, 'resident', 'serve'], { cwd, env: testEnv({ ...RESIDENT_ON, ...env }), stdio: 'ignore', detached: true });
  child.unref();
  residents.push(child.pid!);
  for (let i = 0; i < 600; i++) {
    if (residentStatus(cwd).state === 'running') return child.pid!;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the resident did not start');
}
