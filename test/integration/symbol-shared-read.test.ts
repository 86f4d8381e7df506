import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newParseMemo, symbolChannel } from '../../src/symbols/symbol-channel.js';
import { commitAll, gitIn, initRepo, removeDir, runCli, tempDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * The symbol channel reads file versions for every compared pair. A hook comparing the ownship
 * with N peers used to start one `cat-file --batch` per pair, one after another under the
 * concurrency limit (20 peers: 20 processes, ~1 s of a warm pre-commit on a loaded machine).
 * Now every pair's versions come from ONE process. Here: the ownship and three peers, each with
 * uncommitted changes to its own module (no imports, so no barrel or resolution reads either).
 */
const module = (name: string): string => `export function ${name}(x: number): number {\n  return x + 1;\n}\n`;

let main: string;
let scratch: string;
const trees: string[] = [];

beforeAll(() => {
  main = initRepo({ 'src/a.ts': module('a'), 'src/b.ts': module('b'), 'src/c.ts': module('c'), 'src/own.ts': module('own') });
  scratch = tempDir('airspace-shared-read-');
  for (const name of ['a', 'b', 'c']) {
    const dir = join(main, '..', `${main.split('/').pop()}-${name}`);
    gitIn(main, 'worktree', 'add', '-q', '-b', `agent-${name}`, dir);
    writeFiles(dir, { [`src/${name}.ts`]: module(name).replace('x + 1', 'x + 2') });
    trees.push(dir);
  }
  writeFiles(main, { 'src/own.ts': module('own').replace('x + 1', 'x * 2') });
});

afterAll(() => {
  for (const dir of [...trees, main, scratch]) removeDir(dir);
});

describe('symbol channel reads', () => {
  it('one cat-file for the file versions of every pair', () => {
    const trace = join(scratch, 'trace2.json');
    const result = runCli(main, ['check', '--json'], { GIT_TRACE2_EVENT: trace });
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout) as { links: { a: string; b: string; channels: Record<string, number> }[] };
    // Every peer pair was compared and got a symbol value (0: nobody uses what another changed).
    expect(report.links).toHaveLength(3);
    for (const link of report.links) expect(link.channels.symbol).toBe(0);
    const batches = readFileSync(trace, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"event":"start"'))
      .map((line) => (JSON.parse(line) as { argv: string[] }).argv)
      .filter((argv) => argv.includes('cat-file'));
    // The run's one object reader (`cat-file --batch-command`) serves every read, the pairs' included.
    expect(batches).toHaveLength(1);
  });
});

describe('parses shared by the pairs of a run', () => {
  it('parses the ownship once for two pairs and finds what unshared parses find', async () => {
    const base = gitIn(main, 'rev-parse', 'HEAD');
    const dir = join(scratch, 'clone');
    gitIn(scratch, 'clone', '-q', main, dir);
    writeFiles(dir, { 'src/own.ts': 'export function own(x: number, y: number): number {\n  return x + y;\n}\n' });
    const own = commitAll(dir, 'own takes two parameters');
    // Two peers, each on the base: each one's new code calls `own` with one argument.
    gitIn(dir, 'checkout', '-q', base);
    writeFiles(dir, { 'src/a.ts': "import { own } from './own';\nexport function a(x: number): number {\n  return own(x);\n}\n" });
    const peer1 = commitAll(dir, 'a uses own');
    gitIn(dir, 'checkout', '-q', base);
    writeFiles(dir, { 'src/b.ts': "import { own } from './own';\nexport function b(x: number): number {\n  return own(x) + 1;\n}\n" });
    const peer2 = commitAll(dir, 'b uses own');
    for (const [name, sha] of Object.entries({ own, peer1, peer2 })) gitIn(main, 'fetch', '-q', dir, `${sha}:refs/heads/shared-read-${name}`);
    const parsed = newParseMemo();
    const first = await symbolChannel(main, base, own, peer1, { parsed });
    const afterFirst = [...parsed.facts.keys()];
    const second = await symbolChannel(main, base, own, peer2, { parsed });
    // The second pair added only its peer's new version (where its uses are): the ownship's were
    // parsed for the first, and the peer's base version is not needed, as the ownship's new lines
    // use no name the peer could have changed (src/symbols/symbol-channel.ts, computeChannel).
    const added = [...parsed.facts.keys()].filter((key) => !afterFirst.includes(key));
    expect(added).toEqual([`${peer2}:src/b.ts`]);
    expect(afterFirst).toContain(`${own}:src/own.ts`);
    expect(first).toEqual(await symbolChannel(main, base, own, peer1));
    expect(second).toEqual(await symbolChannel(main, base, own, peer2));
    expect(first.collisions.map((c) => c.symbol)).toEqual(['own']);
    expect(second.collisions.map((c) => c.symbol)).toEqual(['own']);
  });
});
