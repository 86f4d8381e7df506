import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AirspaceError } from '../errors.js';
import { gitMessages } from '../messages/command-line.js';
import { runGit } from './exec-git.js';

/** One file's three versions: the merge of many pairs' files is the merge of these entries. */
export interface BatchMergeEntry {
  /** A flat, unique name in the synthetic trees (no slash: no directory, no file/directory clash). */
  readonly name: string;
  readonly base: VersionOf;
  readonly ours: VersionOf;
  readonly theirs: VersionOf;
}

export interface VersionOf {
  readonly mode: string;
  readonly blob: string;
}

const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const NAME = /^[A-Za-z0-9._-]+$/;
// A scratch directory older than this was left by a killed run (a channels stage lasts seconds).
const STALE_MS = 10 * 60 * 1000;
const IDENT = 'airspace-hooks <merge-batch@airspace-hooks.invalid> 0 +0000';

/**
 * The textual merge of many files at once, for git 2.39 (no `merge-tree --stdin`): each chunk's
 * entries become three flat trees (base, ours, theirs: `mktree --batch`, one process for all), three
 * commits — ours and theirs children of base, so base is their one merge base — written by ONE
 * `hash-object --stdin-paths`, and ONE `merge-tree --write-tree` per chunk. Returns each chunk's
 * conflicted entry names. Every object goes to a scratch object directory under
 * `<common-dir>/airspace/` (the repository's store as its alternate, as a fetch's quarantine is):
 * the user's object database does not grow, and the directory is removed afterwards.
 */
export async function mergeTreeBatch(cwd: string, commonDir: string, chunks: readonly (readonly BatchMergeEntry[])[]): Promise<Set<string>[]> {
  if (chunks.length === 0) return [];
  for (const entry of chunks.flat()) {
    const versions = [entry.base, entry.ours, entry.theirs];
    if (!NAME.test(entry.name) || versions.some((v) => !OID.test(v.blob) || !/^100(644|755)$/.test(v.mode))) {
      throw unexpected('mktree');
    }
  }
  const home = join(commonDir, 'airspace');
  const root = await scratchDir(home, join(commonDir, 'objects'));
  try {
    const objects = join(root, 'objects');
    // The repository's store is the scratch's alternate through its own info/alternates, not
    // GIT_ALTERNATE_OBJECT_DIRECTORIES, whose list is colon-separated (a ':' in the path broke it).
    const env = { GIT_OBJECT_DIRECTORY: objects };
    const trees = await writeTrees(cwd, env, chunks);
    const commits = await writeCommits(cwd, env, root, trees);
    // Two at a time: a chunk's merge is CPU in one process (the content merges and the objects
    // written), and this machine class has two cores.
    const conflicted: Set<string>[] = [];
    for (let i = 0; i < commits.length; i += 2) {
      // Settled, not all: the scratch directory goes only once no merge still writes into it.
      const settled = await Promise.allSettled(commits.slice(i, i + 2).map(({ ours, theirs }) => mergeCommits(cwd, env, ours, theirs)));
      for (const outcome of settled) {
        if (outcome.status === 'rejected') throw outcome.reason;
        conflicted.push(outcome.value);
      }
    }
    return conflicted;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

type Env = Readonly<Record<string, string>>;

/** Three trees per chunk (base, ours, theirs) from one `mktree -z --batch`: an empty record ends a tree. */
async function writeTrees(cwd: string, env: Env, chunks: readonly (readonly BatchMergeEntry[])[]): Promise<{ base: string; ours: string; theirs: string }[]> {
  const sides = ['base', 'ours', 'theirs'] as const;
  const input = chunks
    .flatMap((chunk) => sides.map((side) => `${chunk.map((entry) => `${entry[side].mode} blob ${entry[side].blob}\t${entry.name}\0`).join('')}\0`))
    .join('');
  const { stdout } = await runGit(['mktree', '-z', '--batch'], { cwd, env, input });
  const ids = stdout
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '');
  if (ids.length !== chunks.length * 3 || !ids.every((id) => OID.test(id))) throw unexpected('mktree');
  return chunks.map((_, i) => ({ base: ids[3 * i]!, ours: ids[3 * i + 1]!, theirs: ids[3 * i + 2]! }));
}

/**
 * The commits of each chunk from ONE `hash-object`. A child names its parent's id, which is the
 * hash of the parent's text (computed here with the repository's hash, told by the tree ids'
 * length) — and checked against what git wrote, so a wrong guess fails instead of merging unrelated commits.
 */
async function writeCommits(
  cwd: string,
  env: Env,
  root: string,
  trees: readonly { base: string; ours: string; theirs: string }[],
): Promise<{ ours: string; theirs: string }[]> {
  const texts: string[] = [];
  const expected: string[] = [];
  for (const tree of trees) {
    const base = commitText(tree.base, null);
    const baseId = objectId('commit', base, tree.base.length === 64 ? 'sha256' : 'sha1');
    texts.push(base, commitText(tree.ours, baseId), commitText(tree.theirs, baseId));
    expected.push(baseId);
  }
  const files = texts.map((_, i) => join(root, `commit-${i}`));
  // `--stdin-paths` reads one path per line.
  if (root.includes('\n')) throw unexpected('hash-object');
  try {
    await Promise.all(texts.map((text, i) => writeFile(files[i]!, text)));
  } catch (error) {
    throw new AirspaceError('git', 'unexpected-output', gitMessages.mergeBatchScratch((error as Error).message));
  }
  const { stdout } = await runGit(['hash-object', '-t', 'commit', '-w', '--no-filters', '--stdin-paths'], { cwd, env, input: `${files.join('\n')}\n` });
  const ids = stdout
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '');
  if (ids.length !== texts.length || trees.some((_, i) => ids[3 * i] !== expected[i])) throw unexpected('hash-object');
  return trees.map((_, i) => ({ ours: ids[3 * i + 1]!, theirs: ids[3 * i + 2]! }));
}

function commitText(tree: string, parent: string | null): string {
  return `tree ${tree}\n${parent ? `parent ${parent}\n` : ''}author ${IDENT}\ncommitter ${IDENT}\n\nairspace-hooks merge batch\n`;
}

function objectId(type: string, text: string, algorithm: 'sha1' | 'sha256'): string {
  const body = Buffer.from(text, 'utf8');
  return createHash(algorithm).update(`${type} ${body.length}\0`).update(body).digest('hex');
}

/** merge-tree's answer for one chunk; its exit codes are read as in merge-tree-channel.ts. */
async function mergeCommits(cwd: string, env: Env, ours: string, theirs: string): Promise<Set<string>> {
  const args = ['merge-tree', '--write-tree', '--name-only', '-z', '--no-messages', '--end-of-options', ours, theirs];
  const result = await runGit(args, { cwd, env, okCodes: [1] });
  const [tree, ...names] = result.stdout
    .toString('utf8')
    .split('\0')
    .filter((field) => field !== '');
  if (tree === undefined || !OID.test(tree)) throw unexpected('merge-tree');
  return result.code === 0 ? new Set() : new Set(names);
}

/**
 * Paths (real or synthetic) to which a `merge` or `conflict-marker-size` attribute applies, from
 * ONE `check-attr --stdin -z`: such a path merges by its driver or marker size, which a batch entry
 * under another name would not get.
 */
export async function pathsWithMergeAttributes(cwd: string, paths: readonly string[]): Promise<Set<string>> {
  const unique = [...new Set(paths)];
  if (unique.length === 0) return new Set();
  const { stdout } = await runGit(['check-attr', '--stdin', '-z', 'merge', 'conflict-marker-size'], { cwd, input: `${unique.join('\0')}\0` });
  const fields = stdout.toString('utf8').split('\0');
  const found = new Set<string>();
  for (let i = 0; i + 2 < fields.length; i += 3) if (fields[i + 2] !== 'unspecified') found.add(fields[i]!);
  return found;
}

/**
 * Whether the config changes a merge by path: `merge.renormalize` converts each version by its
 * path's attributes, and `merge.default` names a driver for every path without a `merge`
 * attribute, which sees the path (`%P`): under a batch name it could decide otherwise.
 */
export async function mergeConfigByPath(cwd: string): Promise<boolean> {
  const result = await runGit(['config', '-z', '--get-regexp', '^merge\\.(renormalize|default)$'], { cwd, okCodes: [1] });
  if (result.code !== 0) return false;
  for (const entry of result.stdout.toString('utf8').split('\0')) {
    const [key, value = ''] = entry.split('\n');
    if (key === 'merge.default') return true;
    if (key === 'merge.renormalize' && value.trim() !== 'false' && value.trim() !== '') return true;
  }
  return false;
}

function unexpected(command: string): AirspaceError {
  return new AirspaceError('git', 'unexpected-output', gitMessages.mergeBatchUnexpected(command));
}

/** `<home>/merge-batch-*` with an empty object directory; a file-system failure is a known error (the pairs then merge one by one). */
async function scratchDir(home: string, alternate: string): Promise<string> {
  try {
    // One line of info/alternates: a path with a line break cannot be written there.
    if (/[\n\r]/.test(alternate)) throw new Error('the object directory path holds a line break');
    await mkdir(home, { recursive: true });
    void sweepStale(home).catch(() => undefined);
    const root = await mkdtemp(join(home, 'merge-batch-'));
    await mkdir(join(root, 'objects', 'info'), { recursive: true });
    await mkdir(join(root, 'objects', 'pack'), { recursive: true });
    await writeFile(join(root, 'objects', 'info', 'alternates'), `${resolve(alternate)}\n`);
    return root;
  } catch (error) {
    throw new AirspaceError('git', 'unexpected-output', gitMessages.mergeBatchScratch((error as Error).message));
  }
}

async function sweepStale(home: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(home)) {
    if (!name.startsWith('merge-batch-')) continue;
    const path = join(home, name);
    // One entry removed by its own run meanwhile does not end the sweep.
    const old = await stat(path).then(
      (found) => now - found.mtimeMs > STALE_MS,
      () => false,
    );
    if (old) await rm(path, { recursive: true, force: true }).catch(() => undefined);
  }
}
