import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitAll, gitIn, initRepo, removeDir, runCli, sh, writeFiles } from '../helpers/temp-repo.js';

/**
 * A feature branch that synced main into itself before being merged: at the half-way moment its
 * state is its first commit, which predates the base (the synced main commit) and does not descend
 * from it. `diff base..prefix` would then also show main's own change reverted (2 files); replay
 * moves the prefix onto the base with a virtual merge, as the dataset does, and sees 1 file.
 */

const START = 1_704_067_200;
const HOUR = 3600;
const at = (seconds: number) => ({ GIT_AUTHOR_DATE: `${seconds} +0000`, GIT_COMMITTER_DATE: `${seconds} +0000` });
const body = (name: string, edits: Record<number, string> = {}): string =>
  `${Array.from({ length: 20 }, (_, i) => edits[i + 1] ?? `export const ${name}${i} = ${i};`).join('\n')}\n`;

function commitAt(repo: string, message: string, seconds: number): void {
  gitIn(repo, 'add', '-A');
  sh(repo, 'git', ['commit', '-q', '--no-verify', '-m', message], at(seconds));
}

function build(): { repo: string; finalMerge: string; conflictMerge: string } {
  const repo = initRepo({ 'src/x.ts': body('x'), 'src/y.ts': body('y'), 'src/z.ts': body('z'), 'src/w.ts': body('w') });
  sh(repo, 'git', ['commit', '--amend', '-q', '--no-edit'], at(START - HOUR));
  // Round 0: a conflicting merge (both sides rewrite x.ts lines 5-6), so two classes exist.
  gitIn(repo, 'checkout', '-q', '-b', 'clash');
  writeFiles(repo, { 'src/x.ts': body('x', { 5: 'export const a = 1;', 6: 'export const a2 = 2;' }) });
  commitAt(repo, 'clash side', START + HOUR);
  gitIn(repo, 'checkout', '-q', 'main');
  writeFiles(repo, { 'src/x.ts': body('x', { 5: 'export const b = 1;', 6: 'export const b2 = 2;' }) });
  commitAt(repo, 'clash main', START + 2 * HOUR);
  try {
    sh(repo, 'git', ['merge', '--no-ff', '-q', '-m', 'Merge clash', 'clash'], at(START + 4 * HOUR));
  } catch {
    writeFiles(repo, { 'src/x.ts': body('x', { 5: 'export const c = 1;' }) });
    commitAll(repo, 'Merge clash', `${START + 4 * HOUR} +0000`);
  }
  const conflictMerge = gitIn(repo, 'rev-parse', 'HEAD');

  // Round 1: feature f1 (+1 h, z.ts); main m0 (+2 h, y.ts); sync main into feature (+5 h);
  // feature f2 (+5.5 h, z.ts); main m1 (+3 h, w.ts); merge feature into main (+6 h).
  const s = START + 24 * HOUR;
  gitIn(repo, 'checkout', '-q', '-b', 'feature');
  writeFiles(repo, { 'src/z.ts': body('z', { 3: 'export const f1 = 1;' }) });
  commitAt(repo, 'f1', s + HOUR);
  gitIn(repo, 'checkout', '-q', 'main');
  writeFiles(repo, { 'src/y.ts': body('y', { 5: 'export const m0 = 1;' }) });
  commitAt(repo, 'm0', s + 2 * HOUR);
  gitIn(repo, 'checkout', '-q', 'feature');
  sh(repo, 'git', ['merge', '--no-ff', '-q', '-m', 'Merge main into feature', 'main'], at(s + 5 * HOUR));
  writeFiles(repo, { 'src/z.ts': body('z', { 3: 'export const f1 = 1;', 15: 'export const f2 = 2;' }) });
  commitAt(repo, 'f2', s + 5.5 * HOUR);
  gitIn(repo, 'checkout', '-q', 'main');
  writeFiles(repo, { 'src/w.ts': body('w', { 9: 'export const m1 = 1;' }) });
  commitAt(repo, 'm1', s + 3 * HOUR);
  sh(repo, 'git', ['merge', '--no-ff', '-q', '-m', 'Merge feature', 'feature'], at(s + 6 * HOUR));
  return { repo, finalMerge: gitIn(repo, 'rev-parse', 'HEAD'), conflictMerge };
}

interface CaseJson {
  merge: string;
  fraction: number;
  label: boolean;
  filesA: number;
  filesB: number;
}

describe('replay of a branch that synced main before its merge', () => {
  let built: ReturnType<typeof build>;
  beforeAll(() => {
    built = build();
  }, 120_000);
  afterAll(() => removeDir(built.repo));

  it('takes the early prefix onto the base with a virtual merge, leaving refs and HEAD alone', () => {
    const refsBefore = gitIn(built.repo, 'for-each-ref');
    const result = runCli(built.repo, ['replay', '--merges', '10', '--json']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const json = JSON.parse(result.stdout) as { mergesFound: number; conflicting: number; cases: CaseJson[] };
    // The conflicting merge, the sync merge (main into feature) and the final merge.
    expect(json.mergesFound).toBe(3);
    expect(json.conflicting).toBe(1);
    const final = json.cases.filter((c) => c.merge === built.finalMerge);
    // T0both = m1 (+3 h), T1 = +6 h. At f = 0.25 and 0.5 (+3.75 h, +4.5 h) the feature's state is f1
    // alone: z.ts only, not y.ts reverted. At f = 0.75 (+5.25 h) it is the sync merge: still z.ts.
    expect(final.map((c) => [c.fraction, c.label, c.filesA, c.filesB])).toEqual([
      [0.25, false, 1, 1],
      [0.5, false, 1, 1],
      [0.75, false, 1, 1],
    ]);
    expect(json.cases.filter((c) => c.merge === built.conflictMerge && c.fraction === 0.5).map((c) => c.label)).toEqual([true]);
    expect(gitIn(built.repo, 'for-each-ref')).toBe(refsBefore);
    expect(gitIn(built.repo, 'status', '--porcelain')).toBe('');
  });
});
