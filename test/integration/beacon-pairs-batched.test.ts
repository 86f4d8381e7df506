import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportLink } from '../../src/report/check-report.js';
import { commitAll, gitIn, remoteWithClones, removeDir, runCli, tempDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * Many beacon peers on the ownship's own file (issue 27, the busiest pusher): each beacon pair used
 * to cost a `git merge-tree`, a `git merge-base` and a `git diff-tree` of its own. Twelve peers,
 * published by the real `beacon publish` from one clone (a branch each, uncommitted work), edit
 * src/shared.ts: half on the ownship's line (a conflict), half far from it (clean). The ownship's
 * check must say, for every peer, what `git merge-tree` of the two states says — and start one
 * merge-tree and no merge-base for all of them (docs/decisions/beacon-areas.md).
 */
const PEERS = 12;
const module = (lines: Record<number, string>): string =>
  `${Array.from({ length: 40 }, (_, i) => lines[i + 1] ?? `export const v${i + 1} = ${i + 1};`).join('\n')}\n`;

let root: string;
let bo: string;
let scratch: string;

beforeAll(() => {
  const setup = remoteWithClones({ 'src/shared.ts': module({}), 'src/other.ts': 'export const other = 1;\n' }, 2);
  root = setup.root;
  const [peers, ownship] = setup.clones as [string, string];
  bo = ownship;
  scratch = tempDir('airspace-batched-');
  for (let i = 0; i < PEERS; i++) {
    gitIn(peers, 'switch', '-q', '-c', `peer${i}`, 'main');
    writeFiles(peers, { 'src/shared.ts': module(i % 2 === 0 ? { 5: `export const v5 = ${100 + i};` } : { 30: `export const v30 = ${100 + i};` }) });
    const published = runCli(peers, ['beacon', 'publish']);
    expect(published.status, published.stderr).toBe(0);
    gitIn(peers, 'checkout', '-q', '--', '.');
  }
  gitIn(bo, 'switch', '-q', '-c', 'bo');
  writeFiles(bo, { 'src/shared.ts': module({ 5: 'export const v5 = 0;' }) });
  commitAll(bo, 'bo: v5');
}, 120_000);

afterAll(() => {
  for (const dir of [root, scratch]) removeDir(dir);
});

function gitProcesses(trace: string): string[] {
  return readFileSync(trace, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"event":"start"'))
    .map((line) => JSON.parse(line) as { sid: string; argv: string[] })
    .filter((event) => !event.sid.includes('/'))
    .map((event) =>
      event.argv
        .slice(1)
        .filter((word, i, all) => word !== '-c' && all[i - 1] !== '-c')
        .join(' '),
    );
}

describe('beacon peers on the ownship file', () => {
  it('check --fetch: the merge-tree answer of every pair, from one merge-tree and no merge-base', () => {
    const trace = join(scratch, 'check.json');
    const result = runCli(bo, ['check', '--fetch', '--json'], { GIT_TRACE2_EVENT: trace });
    expect(result.status, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { links: ReportLink[] };
    const head = gitIn(bo, 'rev-parse', 'HEAD');
    // Each peer's published work: its fetched beacon commit's parent.
    const works = new Map(
      gitIn(bo, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/airspace/remote/')
        .split('\n')
        .map((line) => line.split(' '))
        .map(([ref, sha]) => [ref!.split('/').at(-1)!, gitIn(bo, 'rev-parse', `${sha}^`)]),
    );
    let conflicts = 0;
    for (let i = 0; i < PEERS; i++) {
      const link = report.links.find((l) => l.a === `peer${i}` || l.b === `peer${i}`);
      expect(link, `peer${i}`).toBeDefined();
      const work = works.get(`peer${i}`)!;
      const merged = runGitStatus(bo, ['merge-tree', '--write-tree', '--name-only', '--no-messages', head, work]);
      expect(link!.channels.merge, `peer${i}`).toBe(merged);
      if (merged === 1) conflicts++;
    }
    expect(conflicts).toBe(PEERS / 2);
    const processes = gitProcesses(trace);
    // Was one per peer (12), and as many merge-base processes for the symbol channel.
    expect(processes.filter((argv) => argv.startsWith('merge-tree '))).toHaveLength(1);
    expect(processes.filter((argv) => argv.startsWith('merge-base '))).toEqual([]);
    expect(processes.filter((argv) => argv.startsWith('rev-list --parents'))).toHaveLength(1);
  }, 120_000);
});

function runGitStatus(cwd: string, args: string[]): number {
  try {
    gitIn(cwd, ...args);
    return 0;
  } catch {
    return 1;
  }
}
