/**
 * Reads a repository's merge history for `replay`: the merges, their bases and the commits of both
 * sides, with as few git processes as possible (one for the merge list, then per merge a merge-base
 * and a log, run side by side).
 */
import { parseCommitGraph, type CommitGraph } from '../git/branch-history.js';
import { runGit } from '../git/exec-git.js';
import type { ChainCommit } from './replay-moments.js';

export interface MergeCommit {
  readonly merge: string;
  readonly p1: string;
  readonly p2: string;
  /** Committer time of the merge, unix seconds (T1). */
  readonly time: number;
  readonly subject: string;
}

/**
 * The last `count` two-parent merges reachable from HEAD, newest first, from ONE `git log`.
 * `--min-parents=2 --max-parents=2` leaves octopus merges out: they have no single pair of sides.
 */
export async function listMerges(cwd: string, count: number): Promise<MergeCommit[]> {
  const args = ['log', '--min-parents=2', '--max-parents=2', `--max-count=${count}`, '--format=%H%x09%P%x09%ct%x09%s', 'HEAD', '--'];
  const { stdout } = await runGit(args, { cwd });
  const merges: MergeCommit[] = [];
  for (const line of stdout.toString('utf8').split('\n')) {
    if (line === '') continue;
    const [merge = '', parents = '', time = '0', ...subject] = line.split('\t');
    const [p1, p2] = parents.split(' ');
    if (p1 && p2) merges.push({ merge, p1, p2, time: Number(time), subject: subject.join('\t') });
  }
  return merges;
}

/**
 * Every best common ancestor (`--all`): the first is the base of the coordinates (as in the data),
 * all of them are excluded from the sides. Exit 1 with no output = unrelated histories.
 */
export async function mergeBases(cwd: string, p1: string, p2: string): Promise<string[]> {
  const result = await runGit(['merge-base', '--all', p1, p2], { cwd, okCodes: [1] });
  return result.stdout
    .toString('utf8')
    .split('\n')
    .filter((line) => /^[0-9a-f]{40,64}$/.test(line));
}

/**
 * Both sides' own commits in ONE `git log` of the symmetric difference `P1...P2`, which git defines
 * as `P1 P2 --not $(git merge-base --all P1 P2)`: so it needs no merge-base first and can run beside
 * it. Times, parents and the files each non-merge commit changed come with it. The two sides share
 * no commit: anything common to both is an ancestor of some best common ancestor.
 */
export async function readSides(cwd: string, p1: string, p2: string): Promise<CommitGraph> {
  const args = ['log', '--format=%x01%H%x09%ct%x09%P%x09%s', '--name-only', '-z', '--no-renames', `${p1}...${p2}`, '--'];
  const { stdout } = await runGit(args, { cwd });
  return parseCommitGraph(stdout.toString('utf8'));
}

/**
 * `rev-list --first-parent --reverse SIDE ^BASES`, in memory: follow first parents while they are
 * the side's own commits. A first parent reachable from a base ends the chain (so do all its
 * ancestors), which is exactly where rev-list's exclusion stops the walk.
 */
export function firstParentChain(graph: CommitGraph, tip: string): ChainCommit[] {
  const chain: ChainCommit[] = [];
  const seen = new Set<string>();
  for (let sha: string | undefined = tip; sha !== undefined && !seen.has(sha); sha = graph.get(sha)?.parents[0]) {
    const info = graph.get(sha);
    if (!info) break;
    seen.add(sha);
    chain.push({ sha, time: Math.round(info.committedAt / 1000) });
  }
  return chain.reverse();
}

/** Committer identity for the virtual-merge commit object (the user's may be unset). */
const REPLAY_IDENTITY = {
  GIT_AUTHOR_NAME: 'airspace-hooks replay',
  GIT_AUTHOR_EMAIL: 'replay@airspace-hooks.invalid',
  GIT_COMMITTER_NAME: 'airspace-hooks replay',
  GIT_COMMITTER_EMAIL: 'replay@airspace-hooks.invalid',
  GIT_AUTHOR_DATE: '@0 +0000',
  GIT_COMMITTER_DATE: '@0 +0000',
};

/**
 * A prefix that does not descend from the base (the side's first-parent line reaches back past
 * it, e.g. a branch before its last "merge main into feature") would show the base's own changes
 * reverted in `diff base..prefix`. As in the data, its work is moved onto the base with a virtual
 * merge: V = merge-tree BASE PREFIX, wrapped in a commit object whose parent is BASE (objects only;
 * no ref, index or worktree is touched) so the batched `diff-tree --stdin` can take it.
 * Returns null when git could not produce a tree.
 */
export async function virtualMergeCommit(cwd: string, base: string, prefix: string): Promise<{ commit: string; conflict: boolean } | null> {
  const merged = await runGit(['merge-tree', '--write-tree', '-z', '--no-messages', base, prefix], { cwd, okCodes: [1] });
  const tree = (merged.stdout.toString('utf8').split('\0')[0] ?? '').trim();
  if (!/^[0-9a-f]{40,64}$/.test(tree)) return null;
  const commit = await runGit(['commit-tree', '--no-gpg-sign', tree, '-p', base, '-m', 'airspace-hooks replay: virtual merge'], { cwd, env: REPLAY_IDENTITY });
  return { commit: commit.stdout.toString('utf8').trim(), conflict: merged.code === 1 };
}
