import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, commitAll, gitIn, remoteWithClones, removeDir, runCli, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * Peer text reaching an agent through the machine-read outputs — MCP and `watch --json` — is
 * cleaned by the same rule as the CLI's `--json`: a peer worktree on a branch whose name carries a
 * right-to-left override and a zero-width space, editing a file whose name carries them too, and a
 * beacon whose note holds an OSC title sequence, a C1 CSI (U+009B) and a bidi override. No raw
 * unsafe code point leaves the process, and the invisible ones stay visible as `\uXXXX`, so
 * `peer/work` and its look-alike never print the same.
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this pattern finds
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;
const FILE = 'src/\u202ecod\u200b.ts';
const BRANCH = 'peer/\u202ework\u200b';
const NOTE = 'see \u001b]0;pwned\u0007 \u009b31m here \u202eevil\u200b';

let root: string;
let main: string;
let peer: string;

beforeAll(() => {
  const setup = remoteWithClones({ [FILE]: numbered(50), 'src/shared.ts': numbered(50) }, 2);
  root = setup.root;
  const [first, alice] = setup.clones as [string, string];
  main = first;
  peer = join(root, 'peer');
  gitIn(main, 'worktree', 'add', '-q', '-b', BRANCH, peer);
  writeFiles(main, { [FILE]: numbered(50).replace('line 10\n', 'line 10 ours\n'), 'src/shared.ts': numbered(50).replace('line 5\n', 'line 5 ours\n') });
  writeFiles(peer, { [FILE]: numbered(50).replace('line 11\n', 'line 11 peer\n') });
  commitAll(peer, 'peer work');
  // A beacon from another clone with a hostile note, overlapping our edit of src/shared.ts.
  gitIn(alice, 'switch', '-q', '-c', 'alice/work');
  writeFiles(alice, { 'src/shared.ts': numbered(50).replace('line 6\n', 'line 6 alice\n') });
  const published = runCli(alice, ['beacon', 'publish', '--note', NOTE]);
  expect(published.status, published.stderr).toBe(0);
  gitIn(main, 'fetch', '-q', 'origin', '+refs/airspace/*:refs/airspace/remote/*');
}, 60_000);

afterAll(() => removeDir(root));

describe('peer text through MCP and watch --json', () => {
  it('MCP scan: the report and its summary carry no raw unsafe code point; look-alikes stay distinct', async () => {
    const env = Object.fromEntries(Object.entries(testEnv()).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], cwd: main, env, stderr: 'pipe' });
    const client = new Client({ name: 'airspace-test', version: '0.0.0' });
    await client.connect(transport);
    try {
      const result = (await client.callTool({ name: 'scan', arguments: {} })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const texts = result.content.map((c) => (c.type === 'text' ? c.text : ''));
      const structured = JSON.stringify(result.structuredContent);
      for (const text of [...texts, structured]) expect(text).not.toMatch(UNSAFE);
      const report = result.structuredContent as { agents: { id: string; note?: string }[] };
      const ids = report.agents.map((a) => a.id);
      expect(ids).toContain('peer/\\u202ework\\u200b');
      expect(report.agents.find((a) => a.id === 'alice/work')?.note).toBe('see \\u001b]0;pwned\\u0007 \\u009b31m here \\u202eevil\\u200b');
      expect(structured).toContain('src/\\\\u202ecod\\\\u200b.ts');
    } finally {
      await client.close();
    }
  }, 60_000);

  it('watch --json: the raised advisory names the peer and the file with visible escapes', async () => {
    const child = spawn(process.execPath, [BIN, 'watch', '--json', '--debounce', '100'], { cwd: main, env: testEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const raw: string[] = [];
    try {
      for await (const line of createInterface({ input: child.stdout })) {
        raw.push(line);
        if ((JSON.parse(line) as { type: string }).type === 'scanned') break;
      }
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    for (const line of raw) expect(line).not.toMatch(UNSAFE);
    const raised = raw.map((line) => JSON.parse(line) as { type: string; pair?: string[]; files?: string[] }).filter((e) => e.type === 'raised');
    const withPeer = raised.find((e) => e.pair?.includes('peer/\\u202ework\\u200b'));
    expect(withPeer?.files).toEqual(['src/\\u202ecod\\u200b.ts']);
  }, 60_000);
});
