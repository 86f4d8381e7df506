import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mergeChannels } from '../../src/channels/merge-channel.js';
import { collectAirspace, type CollectOptions } from '../../src/traffic/collect-airspace.js';
import { commitAll, gitIn, initRepo, removeDir, tempDir, testEnv, userStateFingerprint, writeFiles } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

const options: CollectOptions = { remote: 'origin', include: [], exclude: [], maxAgeDays: 3650, ignore: () => false };
const lines = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join('');
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function remoteWithClone(files: Record<string, string>): { root: string; clone: string } {
  const root = tempDir();
  dirs.push(root);
  const seed = join(root, 'seed');
  mkdirSync(seed);
  initRepo(files, seed);
  gitIn(root, 'init', '-q', '--bare', '-b', 'main', join(root, 'remote.git'));
  gitIn(seed, 'push', '-q', join(root, 'remote.git'), 'main');
  gitIn(root, 'clone', '-q', join(root, 'remote.git'), join(root, 'clone'));
  return { root, clone: join(root, 'clone') };
}

describe('local worktrees are traffic, with their uncommitted work', () => {
  it('finds every other worktree, merges a worktree branch with its remote branch, skips the missing one', async () => {
    const { root, clone } = remoteWithClone({ 'a.txt': lines(20), 'b.txt': lines(20) });
    gitIn(clone, 'switch', '-q', '-c', 'feature/me');
    writeFiles(clone, { 'a.txt': lines(20).replace('line 4\n', 'mine\n') });

    // Worktree 1: branch feature/a, one pushed commit, one unpushed, plus uncommitted edits.
    const wtA = join(root, 'wt a');
    gitIn(clone, 'worktree', 'add', '-q', '-b', 'feature/a', wtA, 'main');
    writeFiles(wtA, { 'b.txt': lines(20).replace('line 10\n', 'ten\n') });
    commitAll(wtA, 'a: pushed', '2026-03-01T00:00:00Z');
    gitIn(wtA, 'push', '-q', 'origin', 'feature/a');
    writeFiles(wtA, { 'b.txt': lines(20).replace('line 10\n', 'ten\n').replace('line 15\n', 'fifteen\n') });
    commitAll(wtA, 'a: unpushed', '2026-03-02T00:00:00Z');
    writeFiles(wtA, { 'a.txt': lines(20).replace('line 4\n', 'theirs\n') });

    // Worktree 2: detached HEAD, clean. Worktree 3: deleted folder (prunable).
    const wtB = join(root, 'wt-b');
    gitIn(clone, 'worktree', 'add', '-q', '--detach', wtB, 'main');
    const wtGone = join(root, 'wt-gone');
    gitIn(clone, 'worktree', 'add', '-q', '--detach', wtGone, 'main');
    rmSync(wtGone, { recursive: true, force: true });

    const states = [clone, wtA, wtB].map(userStateFingerprint);
    const scan = await collectAirspace(clone, options);
    expect([clone, wtA, wtB].map(userStateFingerprint)).toEqual(states);

    expect(scan.ownship).toMatchObject({ id: 'feature/me', uncommittedPaths: ['a.txt'], facts: { committedWork: 0 } });
    const ids = scan.traffic.map((line) => line.id);
    expect(ids.filter((id) => id === 'feature/a')).toHaveLength(1);
    expect(ids).not.toContain('main'); // the trunk is never traffic
    expect(ids).toHaveLength(2);
    expect(ids.some((id) => /^worktree:wt-b-[0-9a-f]{8}$/.test(id))).toBe(true);
    expect(scan.scanned.notes.join('\n')).toContain('wt-gone');

    const a = scan.traffic.find((line) => line.id === 'feature/a')!;
    // Right of way counts pushed commits only (both machines see them); subjects show the local line.
    expect(a).toMatchObject({ kind: 'worktree', worktreePath: wtA, commitsSinceTrunk: 2, subjects: ['a: unpushed', 'a: pushed'], uncommittedPaths: ['a.txt'] });
    expect(a.facts).toEqual({ committedWork: 1, startedAt: Date.parse('2026-03-01T00:00:00Z') });
    expect(a.snapshot).toMatch(/^[0-9a-f]{40}$/);

    const channelled = await mergeChannels(scan.pairs, { cwd: clone, ignore: () => false, concurrency: 4 });
    const pair = channelled.find((entry) => entry.b === 'feature/a')!;
    expect(pair.base).toBe(gitIn(clone, 'rev-parse', 'main'));
    expect(pair.workingSetA.files).toMatchObject([{ file: 'a.txt', ranges: [[4, 5]], origin: 'uncommitted' }]);
    expect(pair.workingSetB.files).toMatchObject([
      { file: 'a.txt', ranges: [[4, 5]], origin: 'uncommitted' },
      {
        file: 'b.txt',
        ranges: [
          [10, 11],
          [15, 16],
        ],
        origin: 'committed',
        lastEditTime: Date.parse('2026-03-02T00:00:00Z'),
      },
    ]);
    // Both edited line 4 of a.txt, one of them only in the worktree: the snapshots still conflict.
    expect(pair.merge).toEqual({ value: 1, conflictedPaths: ['a.txt'] });
    const clean = channelled.find((entry) => entry.b.startsWith('worktree:wt-b'))!;
    // No path in common: clean without running merge-tree.
    expect(clean.merge).toEqual({ value: 0, conflictedPaths: [], inferred: true });
    expect(scan.unknown).toEqual([]);
  });
});
