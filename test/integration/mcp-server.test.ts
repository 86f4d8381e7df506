import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, commitAll, gitIn, initRepo, removeDir, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * `airspace-hooks mcp` as an MCP client sees it: the SDK's own client spawns the built CLI over
 * stdio, initializes, lists the tools and calls each against a real repository whose linked
 * worktree is a peer with committed and uncommitted work next to ours. Bad calls come back as
 * tool errors and the server keeps answering.
 */
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

let main: string;
let ada: string;
let client: Client;
let stderr = '';

beforeAll(async () => {
  main = initRepo({ 'src/session.ts': numbered(100), 'README.md': '# r\n' });
  ada = join(main, '..', `${main.split('/').pop()}-ada`);
  gitIn(main, 'worktree', 'add', '-q', '-b', 'ada/timeout', ada);
  writeFiles(ada, { 'src/session.ts': numbered(100).replace('line 32\n', 'line 32 ada\n') });
  commitAll(ada, 'ada: shorter session timeout');
  writeFiles(ada, { 'src/session.ts': numbered(100).replace('line 32\n', 'line 32 ada\n').replace('line 35\n', '\tline 35 ada\tdraft\n') });
  writeFiles(main, { 'src/session.ts': numbered(100).replace('line 30\n', 'line 30 ours\n') });

  const env = Object.fromEntries(Object.entries(testEnv()).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], cwd: main, env, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  client = new Client({ name: 'airspace-test', version: '0.0.0' });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  for (const dir of [ada, main]) removeDir(dir);
});

const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const text = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('airspace-hooks mcp over stdio', () => {
  it('initializes and lists the seven tools with input schemas', async () => {
    expect(client.getServerVersion()?.name).toBe('airspace-hooks');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['check', 'inbox', 'intent_add', 'intent_clear', 'intent_list', 'peer_diff', 'scan']);
    const peerDiff = tools.find((t) => t.name === 'peer_diff')!;
    expect(peerDiff.inputSchema.required).toEqual(['peer']);
    expect(peerDiff.annotations?.readOnlyHint).toBe(true);
  });

  it('check: the versioned report of this worktree against the peer, with a short text first', async () => {
    const result = await call('check');
    expect(result.isError).toBeFalsy();
    const report = result.structuredContent as { schema: string; command: string; advisories: { a: string; b: string; level: string }[]; verdict: unknown };
    expect(report.schema).toBe('airspace-hooks/report@2');
    expect(report.command).toBe('check');
    expect(report.verdict).not.toBeNull();
    const link = report.advisories.find((l) => [l.a, l.b].includes('ada/timeout'));
    expect(link?.level).toMatch(/^(TA|RA)$/);
    expect(result.content[0]).toMatchObject({ type: 'text' });
    expect(text(result).split('\n')[0]).toMatch(/advisor/);
    expect(JSON.parse((result.content[1] as { text: string }).text)).toEqual(report);
  });

  it('scan: every pair', async () => {
    const result = await call('scan', { cwd: ada });
    expect(result.isError).toBeFalsy();
    const report = result.structuredContent as { command: string; links: unknown[]; agents: unknown[] };
    expect(report.command).toBe('scan');
    expect(report.agents).toHaveLength(2);
    expect(report.links).toHaveLength(1);
  });

  it('intent_add, intent_list, intent_clear round-trip in the worktree named by cwd', async () => {
    expect((await call('intent_add', { paths: ['src/session.ts', join(main, 'README.md')] })).structuredContent).toEqual({
      intent: ['src/session.ts', 'README.md'],
    });
    expect((await call('intent_list')).structuredContent).toEqual({ intent: ['src/session.ts', 'README.md'] });
    expect((await call('intent_list', { cwd: ada })).structuredContent).toEqual({ intent: [] });
    expect((await call('intent_clear', { paths: ['README.md'] })).structuredContent).toEqual({ intent: ['src/session.ts'] });
    expect((await call('intent_clear')).structuredContent).toEqual({ intent: [] });
  });

  it('inbox: the advisory our check sent is in the peer worktree, and ack empties it', async () => {
    const first = await call('inbox', { cwd: ada });
    const messages = (first.structuredContent as { messages: { from: string; to: string }[] }).messages;
    expect(messages.length).toBeGreaterThan(0);
    expect(messages[0]).toMatchObject({ from: 'main', to: 'ada/timeout' });
    await call('inbox', { cwd: ada, ack: true });
    expect((await call('inbox', { cwd: ada })).structuredContent).toEqual({ messages: [] });
  });

  it("peer_diff: the peer's committed and uncommitted hunks near ours (its tabs kept), with its commit subject", async () => {
    const result = await call('peer_diff', { peer: 'ada/timeout', context: 0 });
    expect(result.isError).toBeFalsy();
    const report = result.structuredContent as {
      peer: string;
      source: string;
      files: { path: string; subjects: string[]; uncommitted: boolean; hunks: { lines: string[] }[] }[];
    };
    expect(report).toMatchObject({ peer: 'ada/timeout', source: 'worktree' });
    expect(report.files).toHaveLength(1);
    expect(report.files[0]).toMatchObject({ path: 'src/session.ts', subjects: ['ada: shorter session timeout'], uncommitted: true });
    expect(report.files[0]!.hunks.flatMap((h) => h.lines)).toEqual(['-line 32', '+line 32 ada', '-line 35', '+\tline 35 ada\tdraft']);
    expect(text(result)).toMatch(/^ada\/timeout: 2 hunks in 1 file/);
  });

  it('bad calls are tool errors, and the server keeps serving', async () => {
    const unknownPeer = await call('peer_diff', { peer: 'nobody' });
    expect(unknownPeer.isError).toBe(true);
    expect(text(unknownPeer)).toContain('no peer "nobody"');
    const missing = await call('intent_add', {});
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/Input validation error/);
    const extra = await call('check', { typo: true });
    expect(extra.isError).toBe(true);
    const relative = await call('check', { cwd: 'src' });
    expect(relative.isError).toBe(true);
    expect(text(relative)).toContain('cwd must be an absolute path');
    const notRepo = await call('check', { cwd: '/' });
    expect(notRepo.isError).toBe(true);
    const outside = await call('intent_add', { paths: ['../escape.ts'] });
    expect(outside.isError).toBe(true);
    expect((await client.listTools()).tools).toHaveLength(7);
    expect(stderr).not.toMatch(/at .*\.js:\d+/);
  });
});
