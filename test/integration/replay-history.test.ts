import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReplayText } from '../../src/replay/replay-render.js';
import type { ReplayResult } from '../../src/replay/replay-run.js';
import { HistoryBuilder, mergeConflicts } from '../helpers/history-builder.js';
import { commitAll, gitIn, initRepo, removeDir, runCli, userStateFingerprint, writeFiles } from '../helpers/temp-repo.js';

/**
 * `replay` on a constructed history: 3 merges whose sides edit the same lines over several commits
 * (git conflicts on them) and 3 whose sides edit different files. Every commit has a fixed date so
 * the both-active moments are known: per round, side B (the branch) commits at +1 h and +3 h, side
 * A (main) at +2 h and +4 h, the merge at +6 h; so T0both = +2 h and f = 0.5 cuts at +4 h, where
 * both sides already hold both of their commits.
 */

const START = 1_704_067_200; // 2024-01-01T00:00:00Z
const HOUR = 3600;

const lines = (name: string, count = 20): string[] => Array.from({ length: count }, (_, i) => `export const ${name}${i} = ${i};`);
const withLines = (base: string[], edits: Record<number, string>): string => `${base.map((line, i) => edits[i + 1] ?? line).join('\n')}\n`;

function buildHistory(): { repo: string; conflicting: string[]; clean: string[] } {
  const files: Record<string, string> = {};
  for (let r = 0; r < 6; r += 1) {
    files[`src/shared-${r}.ts`] = withLines(lines(`s${r}_`), {});
    files[`src/main-${r}.ts`] = withLines(lines(`m${r}_`), {});
    files[`src/side-${r}.ts`] = withLines(lines(`b${r}_`), {});
  }
  const history = new HistoryBuilder().commit('main', { message: 'initial', at: START - HOUR, files });
  for (let r = 0; r < 6; r += 1) {
    const s = START + r * 24 * HOUR;
    const conflict = r % 2 === 0;
    const branch = `feature-${r}`;
    history.branch(branch, 'main');
    const sideFile = conflict ? `src/shared-${r}.ts` : `src/side-${r}.ts`;
    const mainFile = conflict ? `src/shared-${r}.ts` : `src/main-${r}.ts`;
    const base = lines(conflict ? `s${r}_` : `b${r}_`);
    history.commit(branch, {
      message: `side ${r} part 1`,
      at: s + HOUR,
      files: { [sideFile]: withLines(base, { 5: 'export const side = 1;', 6: 'export const side2 = 2;' }) },
    });
    history.commit(
      branch,
      {
        message: `side ${r} part 2`,
        at: s + 3 * HOUR,
        files: { [sideFile]: withLines(base, { 5: 'export const side = 1;', 6: 'export const side2 = 2;', 7: 'export const side3 = 3;' }) },
      },
      `side-${r}`,
    );
    const mainBase = lines(conflict ? `s${r}_` : `m${r}_`);
    history.commit('main', {
      message: `main ${r} part 1`,
      at: s + 2 * HOUR,
      files: { [mainFile]: withLines(mainBase, { 5: 'export const main = 1;', 6: 'export const main2 = 2;' }) },
    });
    history.commit(
      'main',
      {
        message: `main ${r} part 2`,
        at: s + 4 * HOUR,
        files: { [mainFile]: withLines(mainBase, { 5: 'export const main = 1;', 6: 'export const main2 = 2;', 7: 'export const main3 = 3;' }) },
      },
      `main-${r}`,
    );
    // A conflict's merge commit holds its resolution; a clean merge of different files is computed.
    const resolution = conflict ? { [mainFile]: withLines(mainBase, { 5: 'export const both = 1;' }) } : {};
    history.merge('main', branch, { message: `Merge branch '${branch}'`, at: s + 6 * HOUR, files: resolution }, `merge-${r}`);
  }
  // Loose objects: a test deletes one blob's file.
  const { repo, commits } = history.write({ looseObjects: true });
  const rounds = [0, 1, 2, 3, 4, 5];
  // git itself conflicts on the even rounds only (the old build ran `git merge` on each).
  expect(
    mergeConflicts(
      repo,
      rounds.map((r) => [commits[`main-${r}`]!, commits[`side-${r}`]!] as const),
    ),
  ).toEqual(rounds.map((r) => r % 2 === 0));
  const merges = rounds.map((r) => commits[`merge-${r}`]!);
  return { repo, conflicting: merges.filter((_, r) => r % 2 === 0), clean: merges.filter((_, r) => r % 2 === 1) };
}

interface ReplayJson {
  mergesFound: number;
  labelled: number;
  conflicting: number;
  skipped: unknown[];
  moments: {
    fraction: number;
    cases: number;
    conflicts: number;
    auc: Record<string, number | null>;
    engine: { ra: { precision: number | null; recall: number | null } };
  }[];
  cases: { merge: string; fraction: number; label: boolean; mergeChannel: number | null; filesA: number; filesB: number; scores: Record<string, number> }[];
}

describe('replay on a history with conflicting and clean merges', () => {
  let built: ReturnType<typeof buildHistory>;
  let before: string;
  // One `replay --merges 10 --json` run, read by the first two tests: its text form is the
  // renderer on that JSON (checked against a real text run in the one-class test below).
  let result: ReturnType<typeof runCli>;
  beforeAll(() => {
    built = buildHistory();
    before = userStateFingerprint(built.repo);
    result = runCli(built.repo, ['replay', '--merges', '10', '--json']);
  }, 120_000);
  afterAll(() => removeDir(built.repo));

  it('finds every merge, labels it with git merge-tree, and ranks conflicts above clean merges', () => {
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const json = JSON.parse(result.stdout) as ReplayJson;
    expect(json.mergesFound).toBe(6);
    expect(json.labelled).toBe(6);
    expect(json.conflicting).toBe(3);
    expect(json.skipped).toEqual([]);

    const primary = json.cases.filter((c) => c.fraction === 0.5);
    expect(new Set(primary.filter((c) => c.label).map((c) => c.merge))).toEqual(new Set(built.conflicting));
    expect(new Set(primary.filter((c) => !c.label).map((c) => c.merge))).toEqual(new Set(built.clean));
    // Half-way, each side holds both of its commits: one file each, already overlapping on conflicts.
    for (const c of primary) expect([c.filesA, c.filesB]).toEqual([1, 1]);
    for (const c of primary) expect(c.mergeChannel).toBe(c.label ? 1 : 0);
    const lowestConflict = Math.min(...primary.filter((c) => c.label).map((c) => c.scores.engine!));
    const highestClean = Math.max(...primary.filter((c) => !c.label).map((c) => c.scores.engine!));
    expect(lowestConflict).toBeGreaterThan(highestClean);

    const half = json.moments.find((m) => m.fraction === 0.5)!;
    expect(half).toMatchObject({ cases: 6, conflicts: 3 });
    expect(half.auc.engine).toBe(1);
    expect(half.auc.engineNoMerge).toBe(1);
    expect(half.auc.sharedCount).toBe(1);
    expect(half.engine.ra).toEqual({ flagged: 3, truePositives: 3, precision: 1, recall: 1 });
    expect(userStateFingerprint(built.repo)).toBe(before);
  });

  it('prints a short table on a terminal-less run without --json', () => {
    expect(result.status).toBe(0);
    const text = renderReplayText(JSON.parse(result.stdout) as unknown as ReplayResult);
    expect(text).toMatch(/replayed 6 merge\(s\): 6 labelled, 3 conflicting/);
    expect(text).toMatch(/engine \(all channels, merge included\)\s+1\.000\s+1\.000\s+1\.000/);
    expect(text).not.toMatch(/NaN/);
  });

  it('replays only the last N merges', () => {
    const json = JSON.parse(runCli(built.repo, ['replay', '--merges', '4', '--json']).stdout) as ReplayJson;
    expect(json.mergesFound).toBe(4);
    expect(json.conflicting).toBe(2);
  });

  it('with merges of one class only, shows what was measured and why ROC-AUC is undefined (exit 0)', () => {
    const json = runCli(built.repo, ['replay', '--merges', '1', '--json']);
    expect(json.stderr).toBe('');
    expect(json.status).toBe(0);
    const parsed = JSON.parse(json.stdout) as ReplayJson & { undefinedAuc?: string };
    expect(parsed.mergesFound).toBe(1);
    expect(parsed.moments.find((m) => m.fraction === 0.5)).toMatchObject({ cases: 1, auc: { engine: null } });
    expect(parsed.undefinedAuc).toMatch(/ROC-AUC is undefined: none of the 1 merge\(s\) scored at f = 0.5 conflicted/);
    const text = runCli(built.repo, ['replay', '--merges', '1']);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/replayed 1 merge\(s\): 1 labelled, 0 conflicting/);
    expect(text.stdout).toContain('ROC-AUC is undefined');
    expect(text.stdout).toMatch(/engine \(all channels, merge included\)\s+n\/a/);
    expect(text.stdout).not.toMatch(/NaN/);
    // The text form is the renderer on the JSON result (the missing-object case below relies on it),
    // but for what differs between two runs: the elapsed time and whether the graph was built or read.
    const runFree = (t: string): string =>
      t
        .trimEnd()
        .replace(/ in [\d.]+ s$/m, ' in _ s')
        .replace(/^graph: \w+,/m, 'graph: _,');
    expect(runFree(text.stdout)).toBe(runFree(renderReplayText(parsed as unknown as ReplayResult)));
  });

  it('skips and counts a merge whose objects cannot be read, and scores the others', () => {
    // A copy whose main-side blob of round 1's first commit is gone: git can still merge the
    // parents (the label) but not diff the f = 0.25 state, which holds that blob.
    const copy = `${built.repo}-missing`;
    cpSync(built.repo, copy, { recursive: true });
    try {
      const commit = gitIn(copy, 'log', '--format=%H', '--grep=^main 1 part 1$', 'main');
      const blob = gitIn(copy, 'rev-parse', `${commit}:src/main-1.ts`);
      rmSync(join(copy, '.git', 'objects', blob.slice(0, 2), blob.slice(2)), { force: true });
      expect(() => gitIn(copy, 'cat-file', '-e', blob)).toThrow();
      const result = runCli(copy, ['replay', '--merges', '10', '--json']);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      const json = JSON.parse(result.stdout) as ReplayJson;
      expect(json.mergesFound).toBe(6);
      expect(json.skipped).toEqual([{ merge: built.clean[0], reason: 'git-failed' }]);
      expect(json.labelled).toBe(5);
      expect(new Set(json.cases.map((c) => c.merge)).has(built.clean[0]!)).toBe(false);
      expect(json.moments.find((m) => m.fraction === 0.5)).toMatchObject({ cases: 5, conflicts: 3 });
      // Its text form through the same renderer the CLI uses (checked equal to a text run above).
      expect(renderReplayText(json as unknown as ReplayResult)).toMatch(/skipped 1 merge\(s\): git could not read the merge/);
    } finally {
      removeDir(copy);
    }
  });
});

describe('replay on a history without merges', () => {
  it('exits 2 with one line', () => {
    const repo = initRepo({ 'a.ts': 'export const a = 1;\n' });
    try {
      writeFiles(repo, { 'a.ts': 'export const a = 2;\n' });
      commitAll(repo, 'second');
      const result = runCli(repo, ['replay', '--json']);
      expect(result.status).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/no two-parent merge reachable from HEAD/);
    } finally {
      removeDir(repo);
    }
  });
});
