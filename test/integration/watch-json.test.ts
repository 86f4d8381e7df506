import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, gitIn, initRepo, removeDir, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * `watch --json` as another tool consumes it: the real CLI on a repository with a linked
 * worktree; an overlapping edit in the peer worktree raises an advisory on the stream; Ctrl-C ends
 * it with exit 0 and no process left behind; its scans leave the peer's snapshot in the cache
 * the hooks read.
 */
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const WAIT_MS = 90_000;

let main: string;
let peer: string;

beforeAll(async () => {
  main = initRepo({ 'src/a.ts': numbered(50), 'src/b.ts': numbered(50) });
  peer = join(main, '..', `${main.split('/').pop()}-peer`);
  gitIn(main, 'worktree', 'add', '-q', '-b', 'peer/work', peer);
  writeFiles(main, { 'src/a.ts': numbered(50).replace('line 10\n', 'line 10 ours\n') });
  writeFiles(peer, { 'src/b.ts': numbered(50).replace('line 3\n', 'line 3 peer\n') });
  // The snapshot cache refuses files changed in the last 2 s (their ctime cannot be set back):
  // let the peer's edit settle so the first scan may cache it, as a hook's would.
  await sleep(2_100);
});

afterAll(() => {
  for (const dir of [peer, main]) removeDir(dir);
});

/** Processes whose working directory is inside the test repositories (git children included). */
function processesIn(dirs: readonly string[]): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (dirs.some((dir) => cwd === dir || cwd.startsWith(`${dir}/`))) found.push(Number(pid));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

describe('watch --json', () => {
  it('streams a raised advisory when a peer worktree starts overlapping, and exits cleanly on SIGINT', async () => {
    const child = spawn(process.execPath, [BIN, 'watch', '--json', '--debounce', '100'], { cwd: main, env: testEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const next = async (predicate: (event: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> => {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no matching event within ${WAIT_MS} ms; stderr: ${stderr}`)), WAIT_MS);
      });
      const read = (async () => {
        for (;;) {
          const { value, done } = await lines.next();
          if (done) throw new Error(`watch ended early; stderr: ${stderr}`);
          const event = JSON.parse(value) as Record<string, unknown>;
          if (predicate(event)) return event;
        }
      })();
      return Promise.race([read, deadline]).finally(() => clearTimeout(timer));
    };

    try {
      const first = await next((e) => e.type === 'scanned');
      expect(first).toMatchObject({ schema: 'airspace-hooks/watch-event@1', agents: 2, pairs: 1, advisories: 0 });
      const cache = JSON.parse(readFileSync(join(main, '.git', 'airspace', 'worktree-snapshots-v1.json'), 'utf8'));
      expect(Object.keys(cache.entries)).toContain(peer);

      writeFiles(peer, { 'src/a.ts': numbered(50).replace('line 11\n', 'line 11 peer\n') });
      const raised = await next((e) => e.type === 'raised');
      expect(raised).toMatchObject({ pair: ['main', 'peer/work'], files: ['src/a.ts'] });
      expect(['TA', 'RA']).toContain(raised.level);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(stderr).toBe('');
    expect(processesIn([main, peer])).toEqual([]);
  }, 240_000);
});
