import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gitIn, initEmptyRepo, tempDir, testEnv } from './temp-repo.js';

/**
 * A git history written by ONE `git fast-import` process instead of a checkout / add / commit /
 * merge spawn per step (a 24-merge history cost ~330 git spawns that way). The commits are real
 * git objects with fixed dates and the test identity of test/helpers/temp-repo.ts; what a test
 * reads (log, merge-base, merge-tree on the parents) is exactly what the step-by-step build made.
 *
 * A merge is a commit with two parents whose tree is the first parent's plus the files given: a
 * merge of different files is computed here (file-level three-way, from the merge base); a file
 * both sides changed must be given — for a git conflict that is the resolution, for a clean
 * line-level merge it is the content `git merge` writes. Tests that depend on git's own merge
 * behaviour build with `git merge` (test/integration/replay-synced-branch.test.ts).
 */

type Files = Record<string, string | null>;

interface Node {
  readonly mark: number;
  readonly parents: readonly Node[];
  readonly tree: ReadonlyMap<string, string>;
}

export interface CommitSpec {
  readonly message: string;
  /** Author and committer date, Unix seconds (UTC). */
  readonly at: number;
  /** Files to write (string) or delete (null) on top of the parent's tree. */
  readonly files?: Files;
}

export class HistoryBuilder {
  private readonly tips = new Map<string, Node>();
  private readonly chunks: string[] = [];
  private readonly named = new Map<string, number>();
  private marks = 0;

  /** A commit on `branch` (created empty-rooted if it does not exist yet); `name` finds its hash after `write`. */
  commit(branch: string, spec: CommitSpec, name?: string): this {
    const parent = this.tips.get(branch);
    this.emit(branch, spec, parent ? [parent] : [], spec.files ?? {}, name);
    return this;
  }

  /** A new branch at the current tip of `from`, as `git checkout -b` does. */
  branch(name: string, from: string): this {
    this.tips.set(name, this.tip(from));
    return this;
  }

  /**
   * `git merge --no-ff theirs` on `ours`: a two-parent commit. `files` must hold every file both
   * sides changed since their merge base (the resolved or line-merged content); others merge here.
   */
  merge(ours: string, theirs: string, spec: CommitSpec, name?: string): this {
    const a = this.tip(ours);
    const b = this.tip(theirs);
    const base = mergeBase(a, b);
    const given = spec.files ?? {};
    const files: Files = { ...given };
    const paths = new Set([...a.tree.keys(), ...b.tree.keys(), ...(base?.tree.keys() ?? [])]);
    for (const path of paths) {
      if (path in given) continue;
      const [o, t, s] = [a.tree.get(path), b.tree.get(path), base?.tree.get(path)];
      if (o === t || t === s) continue;
      if (o !== s) throw new Error(`merge of ${theirs} into ${ours}: both sides changed ${path}; give its merged content`);
      files[path] = t ?? null;
    }
    this.emit(ours, spec, [a, b], files, name);
    return this;
  }

  /**
   * Writes the history into a new repository (`dir`, default a temp dir), checks out `head`
   * (default `main`) and returns the repository and the hash of every named commit. `looseObjects`
   * keeps every object a loose file (a test that deletes one object's file needs that).
   */
  write(options: { dir?: string; head?: string; looseObjects?: boolean } = {}): { repo: string; commits: Record<string, string> } {
    const repo = options.dir ?? tempDir();
    const head = options.head ?? 'main';
    this.tip(head);
    // HEAD names the branch to check out (as `init -b` does): no switch afterwards.
    initEmptyRepo(repo, head);
    const marksFile = join(repo, '.git', 'history-builder-marks');
    const unpack = options.looseObjects ? ['-c', 'fastimport.unpackLimit=1000000'] : [];
    execFileSync('git', [...unpack, 'fast-import', '--quiet', '--done', `--export-marks=${marksFile}`], {
      cwd: repo,
      env: testEnv(),
      input: `${this.chunks.join('')}done\n`,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    gitIn(repo, 'reset', '-q', '--hard');
    const marks = readFileSync(marksFile, 'utf8');
    rmSync(marksFile);
    const byMark = new Map(
      marks
        .trim()
        .split('\n')
        .map((line) => [Number(line.split(' ')[0]!.slice(1)), line.split(' ')[1]!] as const),
    );
    const commits = Object.fromEntries([...this.named].map(([name, mark]) => [name, byMark.get(mark)!]));
    return { repo, commits };
  }

  private tip(branch: string): Node {
    const node = this.tips.get(branch);
    if (!node) throw new Error(`no branch ${branch}`);
    return node;
  }

  private emit(branch: string, spec: CommitSpec, parents: readonly Node[], files: Files, name?: string): void {
    const mark = ++this.marks;
    const tree = new Map(parents[0]?.tree ?? []);
    const ident = `Test Agent <agent@example.invalid> ${spec.at} +0000`;
    const lines = [`commit refs/heads/${branch}`, `mark :${mark}`, `author ${ident}`, `committer ${ident}`, data(`${spec.message}\n`)];
    if (parents[0]) lines.push(`from :${parents[0].mark}`);
    for (const p of parents.slice(1)) lines.push(`merge :${p.mark}`);
    for (const [path, content] of Object.entries(files)) {
      // Unquoted paths only: the histories tests build need no more, and a quoted one would differ.
      if (!/^[\w./-]+$/.test(path)) throw new Error(`history-builder: unsupported path ${JSON.stringify(path)}`);
      if (content === null) {
        tree.delete(path);
        lines.push(`D ${path}`);
      } else {
        tree.set(path, content);
        lines.push(`M 100644 inline ${path}`, data(content));
      }
    }
    this.chunks.push(`${lines.join('\n')}\n\n`);
    const node: Node = { mark, parents, tree };
    this.tips.set(branch, node);
    if (name !== undefined) this.named.set(name, mark);
  }
}

const data = (text: string): string => `data ${Buffer.byteLength(text)}\n${text}`;

/** The newest common ancestor (by mark: marks grow with time); enough for the histories tests build. */
function mergeBase(a: Node, b: Node): Node | undefined {
  const ancestors = (n: Node): Map<number, Node> => {
    const seen = new Map<number, Node>();
    const stack = [n];
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (seen.has(x.mark)) continue;
      seen.set(x.mark, x);
      stack.push(...x.parents);
    }
    return seen;
  };
  const ofA = ancestors(a);
  let best: Node | undefined;
  for (const [mark, node] of ancestors(b)) if (ofA.has(mark) && (!best || mark > best.mark)) best = node;
  return best;
}

/**
 * Whether git's own merge of each pair of commits conflicts (`git merge-tree --write-tree`, exit 1),
 * all in one shell: the fixture check a history built without `git merge` keeps.
 */
export function mergeConflicts(repo: string, pairs: readonly (readonly [string, string])[]): boolean[] {
  const script = 'while [ "$#" -gt 0 ]; do git merge-tree --write-tree "$1" "$2" >/dev/null; echo "$?"; shift 2; done';
  const out = execFileSync('sh', ['-c', script, 'sh', ...pairs.flat()], { cwd: repo, env: testEnv(), encoding: 'utf8' });
  return out
    .trim()
    .split('\n')
    .map((code) => {
      if (code !== '0' && code !== '1') throw new Error(`git merge-tree failed (exit ${code})`);
      return code === '1';
    });
}
