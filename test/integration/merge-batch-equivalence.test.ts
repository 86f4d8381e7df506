import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchedMerges } from '../../src/channels/batched-merges.js';
import { proveMergeBases } from '../../src/channels/proven-merge-base.js';
import type { ChannelledPair } from '../../src/channels/types.js';
import { mergeTreeChannel } from '../../src/git/merge-tree-channel.js';
import { gitIn, initEmptyRepo, removeDir, tempDir, testEnv, writeFiles } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

/**
 * The batched merge (src/channels/batched-merges.ts) must say exactly what `git merge-tree` of each
 * pair says, or leave the pair out. One base, six "own" states and 150 random "peer" states off it
 * (each a real commit, written by one fast-import), edits of every kind that changes a textual
 * merge: the same line, adjacent lines, distant lines, identical edits, the last line, files
 * without a final newline, CRLF, the executable bit, a binary file; and the shapes the batch must
 * refuse: a deletion and an addition on one side (a rename git might detect), a `merge=union`
 * attribute, a file/directory clash, a symlink, modify/delete.
 */
type Content = string | Buffer | { readonly link: string };
type Tree = Map<string, { mode: string; content: Content }>;

const text = (n: number, eol = '\n', last = true): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join(eol) + (last ? eol : '');
const BASE: Tree = new Map<string, { mode: string; content: Content }>([
  ['src/a.ts', { mode: '100644', content: text(40) }],
  ['src/b.ts', { mode: '100644', content: text(40) }],
  ['src/c.ts', { mode: '100644', content: text(12) }],
  ['docs/no-eol.md', { mode: '100644', content: text(10, '\n', false) }],
  ['win/crlf.txt', { mode: '100644', content: text(20, '\r\n') }],
  ['bin/run.sh', { mode: '100755', content: `#!/bin/sh\n${text(8)}` }],
  ['assets/logo.bin', { mode: '100644', content: Buffer.from([0, 1, 2, 3, 0, 255, 7, 9, 0, 4]) }],
  ['merge-union.txt', { mode: '100644', content: text(10) }],
  ['.gitattributes', { mode: '100644', content: 'merge-union.txt merge=union\n' }],
  ['deep/dir/x.txt', { mode: '100644', content: text(6) }],
  ['spaced name ü.txt', { mode: '100644', content: text(10) }],
]);
const EDITABLE = ['src/a.ts', 'src/b.ts', 'src/c.ts', 'docs/no-eol.md', 'win/crlf.txt', 'bin/run.sh', 'deep/dir/x.txt', 'spaced name ü.txt'];

function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** One random textual edit: change, insert or delete a line, near the start, the middle or the end. */
function edit(content: string, random: () => number, tag: string): string {
  const eol = content.includes('\r\n') ? '\r\n' : '\n';
  const endsWithEol = content.endsWith(eol);
  const lines = (endsWithEol ? content.slice(0, -eol.length) : content).split(eol);
  const where = [0, 1, 2, 5, 6, Math.floor(lines.length / 2), lines.length - 2, lines.length - 1][Math.floor(random() * 8)]!;
  const at = Math.max(0, Math.min(lines.length - 1, where));
  const kind = random();
  if (kind < 0.5) lines[at] = `${lines[at]} ${tag}`;
  else if (kind < 0.8) lines.splice(at + 1, 0, `inserted ${tag}`);
  else if (lines.length > 2) lines.splice(at, 1);
  const trailing = random() < 0.1 ? !endsWithEol : endsWithEol;
  return lines.join(eol) + (trailing ? eol : '');
}

/** A state off the base: random edits to some files, sometimes the same edit as its partner's. */
function randomSide(random: () => number, tag: string, shared?: Tree): Tree {
  const tree: Tree = new Map(BASE);
  for (const path of EDITABLE) {
    if (random() < 0.45) continue;
    const before = tree.get(path)!;
    const fromShared = shared?.get(path);
    const content =
      fromShared && random() < 0.2 && fromShared.content !== BASE.get(path)!.content ? fromShared.content : edit(before.content as string, random, tag);
    tree.set(path, { mode: before.mode, content });
  }
  if (random() < 0.15) tree.set('bin/run.sh', { ...tree.get('bin/run.sh')!, mode: '100644' });
  if (random() < 0.1) tree.set('src/a.ts', { ...tree.get('src/a.ts')!, mode: '100755' });
  if (random() < 0.1) tree.set('assets/logo.bin', { mode: '100644', content: Buffer.from([0, 9, 9, tag.length, 0]) });
  if (random() < 0.1) tree.set(`added/${tag}.ts`, { mode: '100644', content: text(3) });
  if (random() < 0.05) tree.delete('src/c.ts');
  return tree;
}

let repo: string;
let base: string;
const pairs: ChannelledPair[] = [];
/** Each batched pair's own merge-tree answer (the first test), by index. */
const ownResults = new Map<number, Awaited<ReturnType<typeof mergeTreeChannel>>>();
/** Pairs the batch must refuse, by index. */
const refused = new Set<number>();

function fastImport(trees: readonly { ref: string; tree: Tree; parent?: string }[]): void {
  const parts: Buffer[] = [];
  let mark = 0;
  for (const { ref, tree, parent } of trees) {
    mark++;
    parts.push(
      Buffer.from(`commit ${ref}\nmark :${mark}\ncommitter t <t@t.invalid> 1700000000 +0000\ndata 1\nx\n${parent ? `from ${parent}\n` : ''}deleteall\n`),
    );
    for (const [path, { mode, content }] of tree) {
      const body = typeof content === 'string' ? Buffer.from(content) : Buffer.isBuffer(content) ? content : Buffer.from(content.link);
      parts.push(
        Buffer.from(`M ${typeof content === 'object' && !Buffer.isBuffer(content) ? '120000' : mode} inline ${path}\ndata ${body.length}\n`),
        body,
        Buffer.from('\n'),
      );
    }
    parts.push(Buffer.from('\n'));
  }
  execFileSync('git', ['fast-import', '--quiet'], { cwd: repo, input: Buffer.concat(parts) });
}

beforeAll(() => {
  repo = tempDir('airspace-merge-batch-');
  initEmptyRepo(repo);
  fastImport([{ ref: 'refs/heads/main', tree: BASE }]);
  // The worktree holds the base: its .gitattributes is what both merges read.
  gitIn(repo, 'reset', '-q', '--hard', 'main');
  base = gitIn(repo, 'rev-parse', 'refs/heads/main');
  const random = lcg(27);
  const ours = Array.from({ length: 6 }, (_, j) => randomSide(random, `o${j}`));
  const theirs: Tree[] = [];
  for (let i = 0; i < 150; i++) theirs.push(randomSide(random, `t${i}`, ours[i % 6]));
  // The shapes that must stay with a merge-tree of their own.
  const special = (i: number, change: (tree: Tree) => void): void => {
    change(theirs[i]!);
    refused.add(i);
  };
  // A directory renamed on one side, a file added in it on the other: git moves the file and
  // reports "CONFLICT (file location)", with no path both sides changed.
  special(140, (t) => {
    t.delete('deep/dir/x.txt');
    t.set('moved/x.txt', BASE.get('deep/dir/x.txt')!);
  });
  special(141, (t) => t.set('merge-union.txt', { mode: '100644', content: `${text(10)}theirs\n` }));
  special(142, (t) => t.set('new', { mode: '100644', content: 'file\n' }));
  special(143, (t) => t.set('link', { mode: '120000', content: { link: 'src/a.ts' } }));
  special(144, (t) => t.delete('src/a.ts'));
  special(145, (t) => t.delete('deep/dir/x.txt'));
  fastImport([
    ...ours.map((tree, j) => ({ ref: `refs/heads/o${j}`, tree, parent: base })),
    ...theirs.map((tree, i) => ({ ref: `refs/heads/t${i}`, tree, parent: base })),
  ]);
  // The partners of the special shapes change what those need on their side.
  const o = (i: number) => `refs/heads/o${i % 6}`;
  const adjust = (i: number, files: Record<string, string>): void => {
    gitIn(repo, 'switch', '-q', '-c', `o-special-${i}`, base);
    writeFiles(repo, files);
    gitIn(repo, 'add', '-A');
    gitIn(repo, 'commit', '-q', '-m', `special ${i}`);
    gitIn(repo, 'switch', '-q', 'main');
  };
  adjust(140, { 'deep/dir/y.txt': 'added in the renamed directory\n' });
  adjust(141, { 'merge-union.txt': `${text(10)}ours\n` });
  adjust(142, { 'new/inner.txt': 'dir\n' });
  adjust(143, { link: 'a file\n' });
  adjust(144, { 'src/a.ts': text(40).replace('line 9\n', 'changed 9\n') });
  adjust(145, { 'deep/dir/x.txt': text(6).replace('line 2\n', 'changed 2\n') });
  for (let i = 0; i < 150; i++) {
    const a = gitIn(repo, 'rev-parse', refused.has(i) ? `o-special-${i}` : o(i));
    const b = gitIn(repo, 'rev-parse', `refs/heads/t${i}`);
    const empty = { base, files: [] };
    pairs.push({ a: `o${i}`, b: `t${i}`, base, workingSetA: empty, workingSetB: empty, states: { a, b, fromBase: false } });
  }
}, 60_000);

afterAll(() => removeDir(repo));

function looseObjects(): number {
  const objects = join(repo, '.git', 'objects');
  return readdirSync(objects)
    .filter((dir) => /^[0-9a-f]{2}$/.test(dir))
    .reduce((n, dir) => n + readdirSync(join(objects, dir)).length, 0);
}

describe('batched merges say what merge-tree says', () => {
  it('every proven, batchable pair: the same value and conflicted paths as its own git merge-tree; the refused shapes are left out', async () => {
    const proven = await proveMergeBases(repo, pairs, { minPairs: 1, concurrency: 4 });
    expect(proven.size).toBe(pairs.length);
    const commonDir = join(repo, '.git');
    const before = looseObjects();
    const batched = await batchedMerges({ cwd: repo, commonDir, pairs, wanted: pairs.map((_, k) => k), proven });
    // Nothing written to the repository's store, no scratch left behind.
    expect(looseObjects()).toBe(before);
    expect(readdirSync(join(commonDir, 'airspace')).filter((name) => name.startsWith('merge-batch-'))).toEqual([]);
    for (const k of refused) expect(batched.has(k), `pair ${k} must be refused`).toBe(false);
    // Each refused shape is one git does more with: a conflict of no shared content (file location,
    // file/directory, add/add, modify/delete), or none where the content conflicts (merge=union).
    for (const k of refused) {
      const own = await mergeTreeChannel(repo, pairs[k]!.states!.a, pairs[k]!.states!.b);
      expect(own.value, `pair ${k}`).toBe(k === 141 ? 0 : 1);
    }
    expect(batched.size).toBeGreaterThan(90);
    let conflicts = 0;
    for (const [k, result] of batched) {
      const own = await mergeTreeChannel(repo, pairs[k]!.states!.a, pairs[k]!.states!.b);
      expect(result, `pair ${k}`).toEqual(own);
      ownResults.set(k, own);
      if (own.value === 1) conflicts++;
    }
    // Both answers are well represented (a batch that said "clean" to everything would fail above too).
    expect(conflicts).toBeGreaterThan(20);
    expect(batched.size - conflicts).toBeGreaterThan(20);
  }, 120_000);

  it('a batch of thousands of entries merges in halves, with the same answers', async () => {
    const many = Array.from({ length: 6 }, () => pairs).flat();
    const proven = await proveMergeBases(repo, many, { minPairs: 1, concurrency: 4 });
    const trace = join(repo, '..', `${repo.split('/').at(-1)}-trace.json`);
    process.env.GIT_TRACE2_EVENT = trace;
    let batched: Awaited<ReturnType<typeof batchedMerges>>;
    try {
      batched = await batchedMerges({ cwd: repo, commonDir: join(repo, '.git'), pairs: many, wanted: many.map((_, k) => k), proven });
    } finally {
      delete process.env.GIT_TRACE2_EVENT;
    }
    const merges = readFileSync(trace, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"event":"start"') && line.includes('"merge-tree"')).length;
    removeDir(trace);
    expect(merges).toBe(2);
    expect(batched.size).toBe(6 * ownResults.size);
    for (const [k, result] of batched) expect(result, `pair ${k}`).toEqual(ownResults.get(k % pairs.length));
  }, 120_000);

  it('proves a base only when it is the one merge base', async () => {
    // t0 on top of o0 (their common ancestor is o0, not the base); a commit off an older root; a criss-cross.
    const o0 = gitIn(repo, 'rev-parse', 'refs/heads/o0');
    gitIn(repo, 'switch', '-q', '-c', 'on-top', o0);
    writeFiles(repo, { 'src/c.ts': 'on top\n' });
    gitIn(repo, 'commit', '-q', '-am', 'on top');
    const onTop = gitIn(repo, 'rev-parse', 'HEAD');
    gitIn(repo, 'switch', '-q', '--orphan', 'elsewhere');
    writeFiles(repo, { 'other.txt': 'x\n' });
    gitIn(repo, 'add', 'other.txt');
    gitIn(repo, 'commit', '-q', '-m', 'unrelated');
    const unrelated = gitIn(repo, 'rev-parse', 'HEAD');
    // A merge of o0 into t1: o0's commit is then a common ancestor of o0 and that merge.
    gitIn(repo, 'switch', '-q', '-c', 'merged', 'refs/heads/t1');
    gitIn(repo, 'merge', '-q', '--no-edit', '-s', 'ours', o0);
    const merged = gitIn(repo, 'rev-parse', 'HEAD');
    gitIn(repo, 'switch', '-q', 'main');
    const t2 = gitIn(repo, 'rev-parse', 'refs/heads/t2');
    const empty = { base, files: [] };
    const pair = (b: string): ChannelledPair => ({ a: 'o', b, base, workingSetA: empty, workingSetB: empty, states: { a: o0, b, fromBase: false } });
    const proven = await proveMergeBases(repo, [pair(onTop), pair(unrelated), pair(merged), pair(t2), pair(base)], { minPairs: 1, concurrency: 1 });
    expect([...proven.keys()].sort()).toEqual([3, 4]);

    // A criss-cross: p2 and q2 each merged the other's first commit, so they have two merge bases.
    const commitOn = (branch: string, file: string): string => {
      gitIn(repo, 'switch', '-q', '-c', branch, base);
      writeFiles(repo, { [file]: `${branch}\n` });
      gitIn(repo, 'add', file);
      gitIn(repo, 'commit', '-q', '-m', branch);
      return gitIn(repo, 'rev-parse', 'HEAD');
    };
    const p1 = commitOn('cc-p', 'cc/p.txt');
    const q1 = commitOn('cc-q', 'cc/q.txt');
    gitIn(repo, 'switch', '-q', 'cc-p');
    gitIn(repo, 'merge', '-q', '--no-edit', q1);
    const p2 = gitIn(repo, 'rev-parse', 'HEAD');
    gitIn(repo, 'switch', '-q', 'cc-q');
    gitIn(repo, 'merge', '-q', '--no-edit', p1);
    const q2 = gitIn(repo, 'rev-parse', 'HEAD');
    gitIn(repo, 'switch', '-q', 'main');
    expect(gitIn(repo, 'merge-base', '--all', p2, q2).split('\n')).toHaveLength(2);
    const crossed: ChannelledPair = { a: 'p', b: 'q', base, workingSetA: empty, workingSetB: empty, states: { a: p2, b: q2, fromBase: false } };
    expect((await proveMergeBases(repo, [crossed], { minPairs: 1, concurrency: 1 })).size).toBe(0);
  });

  it('a merge.default driver sees each path (%P): the batch then leaves every pair to its own merge-tree', async () => {
    // This driver merges *.txt cleanly and fails elsewhere: a batch entry's name is no *.txt.
    gitIn(repo, 'config', 'merge.pathdriver.driver', 'case %P in *.txt) exit 0;; esac; exit 1');
    gitIn(repo, 'config', 'merge.default', 'pathdriver');
    try {
      const proven = await proveMergeBases(repo, pairs, { minPairs: 1, concurrency: 4 });
      const batched = await batchedMerges({ cwd: repo, commonDir: join(repo, '.git'), pairs, wanted: pairs.map((_, k) => k), proven });
      expect(batched.size).toBe(0);
    } finally {
      gitIn(repo, 'config', '--unset', 'merge.default');
      gitIn(repo, 'config', '--remove-section', 'merge.pathdriver');
    }
  });
});
