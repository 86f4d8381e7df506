import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeChannels } from '../../src/channels/merge-channel.js';
import { proveMergeBases } from '../../src/channels/proven-merge-base.js';
import { symbolChannels } from '../../src/channels/symbol-channels.js';
import type { ChannelledPair } from '../../src/channels/types.js';
import { computeGitChannels } from '../../src/run/compute-git-channels.js';
import { startBudget } from '../../src/run/run-budget.js';
import type { PreparedScoring } from '../../src/run/score-pairs.js';
import { commitAll, gitIn, initEmptyRepo, removeDir, tempDir, testEnv, writeFiles } from '../helpers/temp-repo.js';
import { SESSION, SESSION_WITHOUT_CREATE } from '../helpers/session-module.js';

Object.assign(process.env, testEnv());

/**
 * A hook's run computes the merge and the symbol channel side by side (src/run/compute-git-channels.ts,
 * `bothAtOnce`): the pairs must come out exactly as when the symbol channel ran after the merge
 * channel on its output, the path before. One base, our work and eight beacon-like peers off it
 * (enough to share a proven base and merge in one batch): conflicting and clean edits of one file,
 * a removed and a re-signed export our new code calls, an unrelated file.
 */
const lines = (n: number): string => Array.from({ length: n }, (_, i) => `export const v${i + 1} = ${i + 1};`).join('\n') + '\n';
const BASE = { 'src/auth/session.ts': SESSION, 'src/a.ts': lines(40), 'README.md': '# demo\n' };
const ADMIN =
  "import { createSession, formatUser } from '../auth/session';\nexport const admin = createSession('admin');\nexport const name = formatUser('admin');\n";

const lineEdited = (at: number, tag: string): string =>
  lines(40)
    .split('\n')
    .map((line, i) => (i === at ? `${line} // ${tag}` : line))
    .join('\n');

let dir: string;
let base: string;
let own: string;
const peers: { id: string; work: string }[] = [];

beforeAll(() => {
  dir = tempDir();
  initEmptyRepo(dir);
  writeFiles(dir, BASE);
  base = commitAll(dir, 'base');
  const peer = (id: string, files: Record<string, string>): void => {
    gitIn(dir, 'switch', '-q', '-c', id, base);
    writeFiles(dir, files);
    peers.push({ id, work: commitAll(dir, id) });
  };
  peer('p-conflict-1', { 'src/a.ts': lineEdited(0, 'theirs 1') });
  peer('p-conflict-2', { 'src/a.ts': lineEdited(0, 'theirs 2') });
  peer('p-clean', { 'src/a.ts': lineEdited(30, 'far away') });
  peer('p-removed', { 'src/auth/session.ts': SESSION_WITHOUT_CREATE });
  peer('p-resigned', { 'src/auth/session.ts': SESSION.replace('formatUser(user: string)', 'formatUser(user: string, width: number)') });
  peer('p-readme', { 'README.md': '# demo, edited\n' });
  peer('p-both', { 'src/a.ts': lineEdited(0, 'theirs 3'), 'src/auth/session.ts': SESSION_WITHOUT_CREATE });
  peer('p-same', { 'src/a.ts': lineEdited(0, 'ours') });
  gitIn(dir, 'switch', '-q', '-c', 'own', base);
  writeFiles(dir, { 'src/a.ts': lineEdited(0, 'ours'), 'src/api/admin.ts': ADMIN });
  own = commitAll(dir, 'own');
});
afterAll(() => removeDir(dir));

function pairs(): ChannelledPair[] {
  const empty = { base, files: [] };
  return peers.map(({ id, work }) => ({
    a: 'own',
    b: id,
    base,
    workingSetA: empty,
    workingSetB: empty,
    states: { a: own, b: work, fromBase: false },
  }));
}

describe('the merge and symbol channels side by side (a hook, not scan)', () => {
  it('gives every pair the merge and symbol values of the sequential path, and scores the merged pairs as before', async () => {
    const input = pairs();
    const commonDir = gitIn(dir, 'rev-parse', '--path-format=absolute', '--git-common-dir');
    const ignore = (): boolean => false;
    // The path before: the merge channel, then the symbol channel on its output.
    const proven = await proveMergeBases(dir, input, { minPairs: 4, concurrency: 4 });
    expect(proven.size).toBe(input.length);
    const context = { cwd: dir, ignore, concurrency: 4, proven, commonDir };
    const merged = await mergeChannels(input, context);
    const sequential = (await symbolChannels(merged, () => true, context)).pairs;

    const prepared: (readonly ChannelledPair[])[] = [];
    const result = await computeGitChannels({
      pairs: input,
      cwd: dir,
      commonDir,
      channels: ['merge', 'symbol'],
      ignore,
      budget: startBudget({ budgetMs: null }),
      contactOnly: false,
      prepare: (seen) => {
        prepared.push(seen);
        return { contact: () => true, rule: 'all', score: () => ({}) } as unknown as PreparedScoring;
      },
    });

    expect(result.pairs).toEqual(sequential);
    expect(result.skipped).toEqual([]);
    // The scorer is prepared on the merged pairs, without the symbol results (as before).
    expect(prepared).toEqual([merged]);
    // Not a vacuous comparison: conflicts, clean merges and symbol collisions are all among them.
    const by = new Map(result.pairs.map((pair) => [pair.b, pair]));
    expect(by.get('p-conflict-1')?.merge?.value).toBe(1);
    expect(by.get('p-both')?.merge?.value).toBe(1);
    expect(by.get('p-clean')?.merge?.value).toBe(0);
    expect(by.get('p-same')?.merge?.value).toBe(0);
    expect(by.get('p-removed')?.symbol?.value).toBe(1);
    expect(by.get('p-resigned')?.symbol?.value).toBeGreaterThan(0);
    expect(by.get('p-readme')?.symbol?.value).toBe(0);
  });

  it('a pair git cannot compute is unknown in both channels, the same on both paths', async () => {
    // A peer state the store does not hold: each channel records its failure on the pair.
    const broken = pairs().map((pair, k) => (k === 0 ? { ...pair, states: { a: own, b: '0'.repeat(own.length), fromBase: false } } : pair));
    const context = { cwd: dir, ignore: () => false, concurrency: 4 };
    const sequential = (await symbolChannels(await mergeChannels(broken, context), () => true, context)).pairs;
    const result = await computeGitChannels({
      pairs: broken,
      cwd: dir,
      channels: ['merge', 'symbol'],
      ignore: () => false,
      budget: startBudget({ budgetMs: null }),
      contactOnly: false,
      prepare: () => ({ contact: () => true, rule: 'all', score: () => ({}) }) as unknown as PreparedScoring,
    });
    expect(result.pairs).toEqual(sequential);
    expect(result.pairs[0]?.merge?.value).toBeNull();
    expect(result.pairs[0]?.symbol?.value).toBeNull();
  });
});
