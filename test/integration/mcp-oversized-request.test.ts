import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, initRepo, removeDir, testEnv } from '../helpers/temp-repo.js';

/**
 * One MCP request over the SDK stdio transport's 10 MB buffer (issue 24, item 10): the transport
 * closes the stream; the server used to exit 0 without a word. Now it says why in one line on
 * stderr and exits non-zero, so a harness can tell a refused request from a server that finished.
 */
const repo = initRepo({ 'a.txt': 'a\n' });
afterAll(() => removeDir(repo));

describe('mcp and an oversized request', () => {
  it('says so in one line on stderr and exits 2', async () => {
    const server = spawn(process.execPath, [BIN, 'mcp'], { cwd: repo, env: testEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    server.stdin.on('error', () => undefined);
    let stderr = '';
    server.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    server.stdin.write(`${JSON.stringify(init)}\n`);
    const big = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'intent_list', arguments: { x: 'a'.repeat(12 * 1024 * 1024) } } };
    server.stdin.write(`${JSON.stringify(big)}\n`);
    const code = await Promise.race([exited, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 30_000))]);
    if (code === 'hung') server.kill();
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([expect.stringContaining('larger than the 10 MB the MCP stdio transport accepts')]);
  });
});
