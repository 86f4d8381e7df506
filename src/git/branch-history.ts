import { runGit } from './exec-git.js';

/** Commits reachable from some tips but not from the trunk, read in ONE `git log` pass. */
export interface CommitInfo {
  readonly parents: readonly string[];
  /** Committer time, epoch ms. */
  readonly committedAt: number;
  readonly subject: string;
  /** Paths the commit changed against its first parent (none listed for merges). */
  readonly files: readonly string[];
}

export type CommitGraph = ReadonlyMap<string, CommitInfo>;

/** Safety cap when there is no trunk to cut the history at. */
export const MAX_COMMITS = 20_000;

/**
 * `git log --stdin` with every tip and `^<trunk>`: one process for 200 branches instead of 200.
 * The result is a partial commit graph (parents may point outside it: those are in the trunk);
 * `summarizeLine` walks it per tip in memory.
 */
export async function readCommitGraph(cwd: string, tips: readonly string[], trunk: string | null): Promise<CommitGraph> {
  const graph = new Map<string, CommitInfo>();
  const unique = [...new Set(tips)];
  if (unique.length === 0) return graph;
  const input = `${[...unique, ...(trunk ? [`^${trunk}`] : [])].join('\n')}\n`;
  const args = ['log', '--stdin', '--format=%x01%H%x09%ct%x09%P%x09%s', '--name-only', '-z', '--no-renames', `--max-count=${MAX_COMMITS}`];
  const { stdout } = await runGit(args, { cwd, input });
  return parseCommitGraph(stdout.toString('utf8'));
}

/**
 * `-z --name-only` output: `\x01<header>\0` then `\n<path>\0<path>\0…`; the newline before the
 * first path belongs to the format, so exactly one is stripped.
 */
export function parseCommitGraph(output: string): Map<string, CommitInfo> {
  const graph = new Map<string, CommitInfo>();
  let files: string[] = [];
  let first = false;
  for (const raw of output.split('\0')) {
    const field = first && raw.startsWith('\n') ? raw.slice(1) : raw;
    first = false;
    if (field.startsWith('\x01')) {
      const [sha = '', time = '0', parents = '', ...subject] = field.slice(1).split('\t');
      files = [];
      graph.set(sha, { parents: parents === '' ? [] : parents.split(' '), committedAt: Number(time) * 1000, subject: subject.join('\t'), files });
      first = true;
    } else if (field !== '') {
      files.push(field);
    }
  }
  return graph;
}

/** Commits of the graph reachable from `tip` (the line's work not in the trunk). */
export function lineCommits(graph: CommitGraph, tip: string | null): CommitInfo[] {
  if (tip === null || !graph.has(tip)) return [];
  const seen = new Set<string>();
  const stack = [tip];
  const commits: CommitInfo[] = [];
  while (stack.length > 0) {
    const sha = stack.pop()!;
    if (seen.has(sha)) continue;
    seen.add(sha);
    const info = graph.get(sha);
    if (!info) continue;
    commits.push(info);
    stack.push(...info.parents);
  }
  return commits;
}

/**
 * Whether the line of `tip` contains `commit`: reachable from `tip` inside the graph. A commit the
 * graph does not hold is in the trunk (or beyond the cap), which every line contains.
 */
export function lineContains(graph: CommitGraph, tip: string, commit: string): boolean {
  if (!graph.has(commit) || tip === commit) return true;
  const seen = new Set<string>();
  const stack = [tip];
  while (stack.length > 0) {
    const sha = stack.pop()!;
    if (sha === commit) return true;
    if (seen.has(sha)) continue;
    seen.add(sha);
    stack.push(...(graph.get(sha)?.parents ?? []));
  }
  return false;
}

/**
 * Where a line leaves the trunk: the parents of its own commits that are not its own (they are in
 * the trunk). A tip that is itself in the trunk is its own boundary. One boundary `b` means
 * `b..tip` is exactly the line's own commits, and the line's common history with any other line
 * that shares none of its commits is the common history of the boundaries.
 */
export function boundaries(graph: CommitGraph, tip: string): string[] {
  if (!graph.has(tip)) return [tip];
  const own = new Set<string>();
  const stack = [tip];
  const out = new Set<string>();
  while (stack.length > 0) {
    const sha = stack.pop()!;
    if (own.has(sha)) continue;
    const info = graph.get(sha);
    if (!info) {
      out.add(sha);
      continue;
    }
    own.add(sha);
    stack.push(...info.parents);
  }
  return [...out];
}

/** Newest committer time per path over the line's own commits (its `<boundary>..tip`). */
export function lineEditTimes(graph: CommitGraph, tip: string): Map<string, number> {
  const times = new Map<string, number>();
  for (const commit of lineCommits(graph, tip)) {
    for (const path of commit.files) if ((times.get(path) ?? -Infinity) < commit.committedAt) times.set(path, commit.committedAt);
  }
  return times;
}

export interface LineSummary {
  /** Commits reachable from the tip and not from the trunk. */
  readonly count: number;
  /** Committer time of the oldest of them (epoch ms), undefined when there are none. */
  readonly oldest?: number;
  /** Their subjects, newest first, at most `cap`. */
  readonly subjects: string[];
}

export function summarizeLine(graph: CommitGraph, tip: string | null, cap = 10): LineSummary {
  const commits = lineCommits(graph, tip);
  if (commits.length === 0) return { count: 0, subjects: [] };
  const oldest = commits.reduce((min, commit) => Math.min(min, commit.committedAt), Infinity);
  const subjects = [...commits]
    .sort((x, y) => y.committedAt - x.committedAt)
    .slice(0, cap)
    .map((commit) => commit.subject);
  return { count: commits.length, oldest, subjects };
}
