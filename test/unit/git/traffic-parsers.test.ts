import { describe, expect, it } from 'vitest';
import { boundaries, lineEditTimes, parseCommitGraph, summarizeLine } from '../../../src/git/branch-history.js';
import { resolveTrunk } from '../../../src/git/resolve-trunk.js';
import type { RefEntry } from '../../../src/git/list-refs.js';
import { discoverRemoteBranches } from '../../../src/traffic/discover-remote-branches.js';
import { parseAgentSpec } from '../../../src/traffic/discover-explicit-agents.js';
import { parseWorktreeList } from '../../../src/traffic/discover-worktrees.js';
import { worktreeAgentId } from '../../../src/traffic/line-of-work.js';
import { pathsMayConflict } from '../../../src/channels/paths-may-conflict.js';

const sha = (c: string): string => c.repeat(40);

describe('parseCommitGraph and line summaries', () => {
  // t2 → t1 → (trunk commit T, not in the graph); m (merge of t2 and x) → x → T
  const output = [`\x01${sha('2')}\t200\t${sha('1')}\ttwo\0\nsrc/a.ts\0src/b.ts\0`, `\x01${sha('1')}\t100\t${sha('t')}\tone\0\nsrc/a.ts\0`].join('');
  const graph = parseCommitGraph(output);

  it('reads commits with parents, times, subjects and files', () => {
    expect(graph.get(sha('2'))).toEqual({ parents: [sha('1')], committedAt: 200_000, subject: 'two', files: ['src/a.ts', 'src/b.ts'] });
  });

  it('counts the line, finds where it left the trunk, and dates its files', () => {
    expect(summarizeLine(graph, sha('2'))).toEqual({ count: 2, oldest: 100_000, subjects: ['two', 'one'] });
    expect(summarizeLine(graph, sha('9'))).toEqual({ count: 0, subjects: [] });
    expect(boundaries(graph, sha('2'))).toEqual([sha('t')]);
    expect(boundaries(graph, sha('t'))).toEqual([sha('t')]);
    expect(Object.fromEntries(lineEditTimes(graph, sha('2')))).toEqual({ 'src/a.ts': 200_000, 'src/b.ts': 200_000 });
  });
});

describe('resolveTrunk', () => {
  const ref = (name: string, c: string, symref = ''): RefEntry => ({ ref: name, sha: sha(c), committedAt: 0, symref });
  it('follows <remote>/HEAD, then main, then master; prefers the remote-tracking ref', () => {
    const refs = [
      ref('refs/remotes/origin/HEAD', 'd', 'refs/remotes/origin/develop'),
      ref('refs/remotes/origin/develop', 'd'),
      ref('refs/heads/main', 'm'),
      ref('refs/remotes/origin/main', 'n'),
    ];
    expect(resolveTrunk({ refs, hasRemote: true, fetched: [] }, 'origin')).toEqual({ ref: 'refs/remotes/origin/develop', name: 'develop', sha: sha('d') });
    expect(resolveTrunk({ refs: refs.slice(2), hasRemote: true, fetched: [] }, 'origin')?.ref).toBe('refs/remotes/origin/main');
    expect(resolveTrunk({ refs: refs.slice(2), hasRemote: false, fetched: [] }, 'origin')?.ref).toBe('refs/heads/main');
    expect(resolveTrunk({ refs: [ref('refs/heads/master', 'x')], hasRemote: false, fetched: [] }, 'origin')?.name).toBe('master');
    expect(resolveTrunk({ refs, hasRemote: true, fetched: [] }, 'origin', 'main')?.ref).toBe('refs/remotes/origin/main');
    expect(resolveTrunk({ refs, hasRemote: true, fetched: [] }, 'origin', 'release')).toBeNull();
  });
});

describe('discoverRemoteBranches', () => {
  const at = 100 * 86_400_000;
  const entry = (name: string, days: number, symref = ''): RefEntry => ({
    ref: `refs/remotes/origin/${name}`,
    sha: sha('a'),
    committedAt: at - days * 86_400_000,
    symref,
  });
  it('skips HEAD, trunk, ownship, globs and stale branches; ids are branch names', () => {
    const listing = {
      hasRemote: true,
      fetched: [],
      refs: [
        entry('HEAD', 0, 'refs/remotes/origin/main'),
        entry('main', 0),
        entry('me', 0),
        entry('feature/x', 1),
        entry('wip/y', 1),
        entry('old', 40),
        { ...entry('z', 0), ref: 'refs/heads/z' },
      ],
    };
    const found = discoverRemoteBranches(listing, 'origin', new Set(['main', 'me']), { include: [], exclude: ['wip/**'], maxAgeDays: 30, at });
    expect(found.map((branch) => branch.id)).toEqual(['feature/x']);
    const included = discoverRemoteBranches(listing, 'origin', new Set(), { include: ['feature/*', 'old'], exclude: [], maxAgeDays: Infinity, at });
    expect(included.map((branch) => branch.id)).toEqual(['feature/x', 'old']);
  });

  it('lists branches in code-unit order, the same on every machine (not the locale order)', () => {
    const listing = { hasRemote: true, fetched: [], refs: [entry('zed', 0), entry('Zoe', 0), entry('alpha', 0), entry('Bob', 0), entry('_tmp', 0)] };
    const found = discoverRemoteBranches(listing, 'origin', new Set(), { include: [], exclude: [], maxAgeDays: Infinity, at });
    expect(found.map((branch) => branch.id)).toEqual(['Bob', 'Zoe', '_tmp', 'alpha', 'zed']);
  });

  it('once the tool has fetched, its copy says which branches exist; each tip is the newer of its copy and the user ref', () => {
    const ours = (name: string, c: string): RefEntry => ({ ...entry(name, 1), ref: `refs/airspace/branches/origin/${name}`, sha: sha(c) });
    const listing = {
      hasRemote: true,
      // deleted upstream (pruned from our copy), still in the user's refs; moved on by a later push or
      // fetch of the user's; left behind by the user (older than ours).
      refs: [
        entry('HEAD', 0, 'refs/remotes/origin/main'),
        entry('deleted', 0),
        { ...entry('moved', 0), sha: sha('b') },
        { ...entry('behind', 2), sha: sha('d') },
      ],
      fetched: [ours('behind', 'e'), ours('moved', 'a'), ours('untracked', 'c')],
    };
    const found = discoverRemoteBranches(listing, 'origin', new Set(), { include: [], exclude: [], maxAgeDays: Infinity, at });
    expect(found.map((branch) => [branch.id, branch.sha])).toEqual([
      ['behind', sha('e')],
      ['moved', sha('b')],
      ['untracked', sha('c')],
    ]);
  });
});

describe('small parsers', () => {
  it('parses `git worktree list --porcelain -z`', () => {
    const fields = [
      'worktree /r',
      `HEAD ${sha('1')}`,
      'branch refs/heads/main',
      '',
      'worktree /r/wt b',
      `HEAD ${sha('2')}`,
      'detached',
      '',
      'worktree /gone',
      `HEAD ${sha('3')}`,
      'detached',
      'prunable gitdir file points to non-existent location',
      '',
      'worktree /bare.git',
      'bare',
      '',
    ];
    expect(parseWorktreeList(fields)).toEqual([
      { path: '/r', head: sha('1'), branch: 'main', bare: false, prunable: false },
      { path: '/r/wt b', head: sha('2'), branch: null, bare: false, prunable: false },
      { path: '/gone', head: sha('3'), branch: null, bare: false, prunable: true },
      { path: '/bare.git', head: null, branch: null, bare: true, prunable: false },
    ]);
  });

  it('parses NAME=REV and rejects anything else', () => {
    expect(parseAgentSpec('feature/x=origin/feature/x')).toEqual({ id: 'feature/x', rev: 'origin/feature/x' });
    expect(parseAgentSpec('a=HEAD~2')).toEqual({ id: 'a', rev: 'HEAD~2' });
    expect(() => parseAgentSpec('nope')).toThrow(/NAME=REV/);
    expect(() => parseAgentSpec('=x')).toThrow();
  });

  it('derives a readable, path-unique id for a worktree without a branch', () => {
    expect(worktreeAgentId('/work/wt-a')).toMatch(/^worktree:wt-a-[0-9a-f]{8}$/);
    expect(worktreeAgentId('/work/wt-a')).toBe(worktreeAgentId('/work/wt-a'));
    expect(worktreeAgentId('/other/wt-a')).not.toBe(worktreeAgentId('/work/wt-a'));
  });
});

describe('pathsMayConflict', () => {
  const f = (file: string, path?: string) => ({ file, status: path ? ('R' as const) : ('M' as const), ...(path ? { path } : {}) });
  it('detects same file, rename sources, file/directory and moved-directory cases; disjoint is clean', () => {
    expect(pathsMayConflict([f('src/a.ts')], [f('src/b.ts')])).toBe(false);
    expect(pathsMayConflict([f('src/a.ts')], [f('src/a.ts')])).toBe(true);
    expect(pathsMayConflict([f('old.ts', 'new.ts')], [f('old.ts')])).toBe(true);
    expect(pathsMayConflict([f('lib')], [f('lib/x.ts')])).toBe(true);
    expect(pathsMayConflict([f('lib/x.ts')], [f('lib')])).toBe(true);
    expect(pathsMayConflict([f('d/x.ts', 'e/x.ts')], [f('d/new.ts')])).toBe(true);
  });
});
