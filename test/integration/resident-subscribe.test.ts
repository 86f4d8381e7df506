import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { gone, isAlive } from '../helpers/processes.js';
import { numberedLines, RESIDENT_OFF, RESIDENT_ON, residentStatus } from '../helpers/resident-airspace.js';
import { BIN, gitIn, initRepo, removeDir, runCli, tempDir, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * The resident's subscriptions (docs/decisions/resident.md, "Subscriptions"): a connected `watch
 * --json` and an MCP client (the SDK's own, over stdio of a real `airspace-hooks mcp`) hear of an
 * edit in the peer worktree from the resident's background re-score — no question asked, nobody
 * commits — and the same RA is in the inbox. Each starts the resident itself, as the one-shot
 * fallback does; `watch` follows it across a `resident stop` to the next one. Every wait is a
 * generous poll, never a timing.
 */
const WAIT_MS = 90_000;
const cleanup: string[] = [];
const residents = new Set<number>();

afterAll(() => {
  for (const pid of residents) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  for (const dir of cleanup) removeDir(dir);
});

/** main with uncommitted work (line 7 of a.txt, an untracked notes/new.txt), and a linked worktree `peer` without work yet. */
function airspace(prefix: string): { main: string; peer: string } {
  const root = tempDir(prefix);
  cleanup.push(root);
  const main = initRepo({ 'a.txt': numberedLines(60) }, join(root, 'main'));
  const peer = join(root, 'peer');
  gitIn(main, 'worktree', 'add', '-q', '-b', 'peer', peer);
  writeFiles(main, { 'a.txt': numberedLines(60).replace('line 7\n', 'line 7 main\n'), 'notes/new.txt': 'main\n' });
  return { main, peer };
}

const peerCollides = (peer: string) => writeFiles(peer, { 'a.txt': numberedLines(60).replace('line 7\n', 'line 7 peer\n') });

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (let waited = 0; waited < WAIT_MS; waited += 100) {
    const found = await probe();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`waited ${WAIT_MS} ms for ${what}`);
}

const inboxOf = (cwd: string) =>
  (JSON.parse(runCli(cwd, ['inbox', '--json'], RESIDENT_OFF).stdout) as { messages: { from: string; level: string }[] }).messages;

/** The resident now serving `cwd`'s repository, remembered for the clean-up. */
function runningResident(cwd: string): { pid: number; subscribers: number } | undefined {
  const now = residentStatus(cwd);
  if (now.state !== 'running') return undefined;
  residents.add(now.status.pid);
  return now.status;
}

describe('subscriptions to the resident', () => {
  it('watch --json follows the resident: the peer edit arrives as an event, and it reconnects to the next resident', async () => {
    const { main, peer } = airspace('airspace-subscribe-watch-');
    const child = spawn(process.execPath, [BIN, 'watch', '--json'], { cwd: main, env: testEnv(RESIDENT_ON), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const events: Record<string, unknown>[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => events.push(JSON.parse(line) as Record<string, unknown>));
    const event = (type: string, test: (e: Record<string, unknown>) => boolean = () => true, after = 0) =>
      until(`a ${type} event (stderr: ${stderr})`, () => events.slice(after).find((e) => e.type === type && test(e)));

    try {
      // It started the resident (none ran) and subscribed to it: the first event is main's state now.
      const connected = await event('connected');
      residents.add(connected.resident as number);
      expect(await event('advised')).toMatchObject({ agent: 'main', advisories: 0 });
      expect(runningResident(main)).toMatchObject({ pid: connected.resident, subscribers: 1 });

      peerCollides(peer);
      const raised = await event('raised');
      expect(raised).toMatchObject({ schema: 'airspace-hooks/watch-event@1', level: 'RA', steer: 'peer', files: ['a.txt'] });
      expect([...(raised.pair as string[])].sort()).toEqual(['main', 'peer']);
      // The same RA, delivered to the inbox by the same re-score.
      expect(inboxOf(main).map((m) => [m.from, m.level])).toEqual([['peer', 'RA']]);

      // The resident goes away: watch reconnects, starting the next one, and goes on.
      const seen = events.length;
      expect(runCli(main, ['resident', 'stop'], RESIDENT_ON).stdout).toContain('stopped');
      await event('disconnected', undefined, seen);
      const again = await event('connected', undefined, seen);
      residents.add(again.resident as number);
      expect(again.resident).not.toBe(connected.resident);
      gitIn(peer, 'checkout', '--', 'a.txt');
      const cleared = await event('cleared', undefined, seen);
      expect([...(cleared.pair as string[])].sort()).toEqual(['main', 'peer']);
      // A file created in a new directory: the resident watches directories, not files, and
      // still hears of it (both sides add notes/new.txt: a merge-tree conflict).
      const before = events.length;
      writeFiles(peer, { 'notes/new.txt': 'peer\n' });
      expect(await event('raised', undefined, before)).toMatchObject({ level: 'RA', files: ['notes/new.txt'] });
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
    expect(runCli(main, ['resident', 'stop'], RESIDENT_ON).stdout).toContain('stopped');
  }, 300_000);

  it('an MCP session gets resources/updated and a log message for its advisories resource; the RA is in the inbox too', async () => {
    const { main, peer } = airspace('airspace-subscribe-mcp-');
    const env = Object.fromEntries(Object.entries(testEnv(RESIDENT_ON)).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const client = new Client({ name: 'airspace-test', version: '0.0.0' });
    const updated: string[] = [];
    const logged: { level: string; data: unknown }[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void updated.push(notification.params.uri));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logged.push(notification.params));
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], cwd: main, env, stderr: 'ignore' }));
    try {
      expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);
      const { resources } = await client.listResources();
      const uri = resources.find((resource) => resource.name === 'advisories')?.uri;
      expect(uri).toBeDefined();
      await client.subscribeResource({ uri: uri! });
      // The server started the resident and subscribed to it for its worktree.
      const resident = await until('the MCP server subscribed', () => {
        const now = runningResident(main);
        return now && now.subscribers === 1 ? now : undefined;
      });
      const before = updated.length;

      peerCollides(peer);
      const read = async () => {
        if (updated.length === before) return undefined;
        const content = (await client.readResource({ uri: uri! })).contents[0];
        const state = JSON.parse(content && 'text' in content ? content.text : '{}') as {
          source: string;
          advisories: { a: string; b: string; level: string }[];
        };
        return state.advisories.some((a) => a.level === 'RA') ? state : undefined;
      };
      const state = await until('resources/updated with the RA', read);
      expect(state.source).toBe('resident');
      expect(state.advisories.map((a) => [a.a, a.b].sort())).toEqual([['main', 'peer']]);
      expect(updated.every((u) => u === uri)).toBe(true);
      const warning = await until('a warning log message', () => logged.find((m) => m.level === 'warning'));
      expect(JSON.stringify(warning.data)).toContain('peer');
      // The peer's re-score leaves the message in main's inbox. The session may first hear of the
      // RA from main's own re-score (the one its subscription asked for, when that ran after the
      // peer's edit), which leaves main's message in the peer's inbox, not its own: so wait for it.
      const inbox = await until('the RA in the inbox', () => {
        const messages = inboxOf(main).map((m) => [m.from, m.level]);
        return messages.length > 0 ? messages : undefined;
      });
      expect(inbox).toEqual([['peer', 'RA']]);
      expect(runningResident(main)?.pid).toBe(resident.pid);
    } finally {
      await client.close();
    }
    // The session closed: its subscription with it.
    await until('the subscription closed', () => (runningResident(main)?.subscribers === 0 ? true : undefined));
    const pid = runningResident(main)?.pid;
    expect(runCli(main, ['resident', 'stop'], RESIDENT_ON).stdout).toContain('stopped');
    if (pid !== undefined) expect(await gone(pid)).toBe(true);
  }, 300_000);
});
