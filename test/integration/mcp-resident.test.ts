import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, removeDir, runCli, testEnv } from '../helpers/temp-repo.js';
import { gone, isAlive } from '../helpers/processes.js';
import { mainAndPeer, RESIDENT_OFF, RESIDENT_ON, residentStatus } from '../helpers/resident-airspace.js';

/**
 * The MCP `check` tool asks the repository's resident first, as the `check` command does
 * (docs/decisions/resident.md): the SDK's own client calls the tool of a real `airspace-hooks mcp`
 * once with a resident running (which must serve it) and once after it stopped (the one-shot
 * fallback, which starts a new resident), and the tool result is the same.
 */
const ON = RESIDENT_ON;
const OFF = RESIDENT_OFF;
const cleanup: string[] = [];
const residents: number[] = [];
const clients: Client[] = [];

afterAll(async () => {
  for (const client of clients) await client.close();
  for (const pid of residents) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  for (const dir of cleanup) removeDir(dir);
});

/** main and a linked worktree `peer`, both with work in src/a.ts. */
const airspace = (mainLine: number, peerLine: number): string => mainAndPeer('airspace-mcp-resident-', mainLine, peerLine, cleanup).main;

async function waitForRunning(cwd: string): Promise<number> {
  for (let i = 0; i < 1200; i++) {
    const status = residentStatus(cwd);
    if (status.state === 'running') return status.status.pid;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the resident did not start');
}

async function mcpClient(cwd: string): Promise<Client> {
  const env = Object.fromEntries(Object.entries(testEnv(ON)).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const client = new Client({ name: 'airspace-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], cwd, env, stderr: 'ignore' }));
  clients.push(client);
  return client;
}

/** A tool result without what differs between two runs of the same state: timings and the clock. */
function comparable(result: CallToolResult): unknown {
  const data = JSON.parse(JSON.stringify(result.structuredContent), (key, value) =>
    key === 'durationMs' || key === 'ms' || key === 'at' || /AgeMs$|^ageMs$/.test(key) ? undefined : value,
  ) as unknown;
  const summary = result.content[0]?.type === 'text' ? result.content[0].text.replace(/\d+ ms\b/g, 'N ms') : null;
  return { isError: result.isError ?? false, summary, data };
}

describe('the MCP check tool asks the resident first', () => {
  it.each([
    ['an RA (both changed the same line)', 40, 40, 'RA'],
    ['a TA (lines close together, no conflict)', 40, 44, 'TA'],
  ])('%s: the same tool result from the resident and from the one-shot fallback', async (_name, mainLine, peerLine, level) => {
    const main = airspace(mainLine, peerLine);
    // Two one-shot runs first: the caches and the risk history are then what every later run finds.
    for (let i = 0; i < 2; i++) expect(runCli(main, ['check', '--json'], OFF).status).toBeLessThan(2);
    const serve = spawn(process.execPath, [BIN, 'resident', 'serve'], { cwd: main, env: testEnv(ON), stdio: 'ignore', detached: true });
    serve.unref();
    residents.push(serve.pid!);
    const first = await waitForRunning(main);
    const client = await mcpClient(main);
    const check = async () => (await client.callTool({ name: 'check', arguments: {} })) as CallToolResult;

    const before = residentStatus(main).status.served;
    const viaResident = await check();
    expect(residentStatus(main).status.served, 'the resident answered').toBe(before + 1);

    expect(runCli(main, ['resident', 'stop'], ON).stdout).toContain('stopped');
    expect(await gone(first)).toBe(true);
    const oneShot = await check();
    // The fallback is check's: having found no resident, it started one.
    const second = await waitForRunning(main);
    residents.push(second);
    expect(second).not.toBe(first);

    expect(viaResident.isError).toBeFalsy();
    expect(comparable(viaResident)).toEqual(comparable(oneShot));
    expect((viaResident.structuredContent as { advisories: { level: string }[] }).advisories.map((a) => a.level)).toEqual([level]);
    expect(runCli(main, ['resident', 'stop'], ON).stdout).toContain('stopped');
  });
});
