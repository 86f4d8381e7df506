import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCalibrate } from '../../src/cli/commands/calibrate-command.js';
import { MIN_CONFLICTS } from '../../src/replay/calibrate-run.js';
import { HistoryBuilder, mergeConflicts } from '../helpers/history-builder.js';
import { removeDir, runCli, writeFiles } from '../helpers/temp-repo.js';

/**
 * `calibrate` on generated histories. Enough history: 16 merges whose sides edit the same lines
 * (git conflicts) and 8 whose sides edit the same file 5 lines apart (clean, but close enough for
 * the default τ_TA to warn), interleaved in time. The fit on the older merges learns a τ_TA that
 * stops warning about the clean ones, so it beats the defaults on the newer merges and `--write`
 * writes it. Too little history: one line, exit 0, nothing written.
 */
const START = 1_704_067_200; // 2024-01-01T00:00:00Z
const HOUR = 3600;
const lines = (name: string, count = 30): string[] => Array.from({ length: count }, (_, i) => `export const ${name}${i} = ${i};`);
const withLines = (base: string[], edits: Record<number, string>): string => base.map((line, i) => edits[i + 1] ?? line).join('\n') + '\n';

function buildHistory(conflicts: number, clean: number): string {
  const rounds = conflicts + clean;
  const files: Record<string, string> = {};
  for (let r = 0; r < rounds; r += 1) files[`src/file-${r}.ts`] = withLines(lines(`f${r}_`), {});
  const history = new HistoryBuilder().commit('main', { message: 'initial', at: START - HOUR, files });
  let made = 0;
  const expected: boolean[] = [];
  for (let r = 0; r < rounds; r += 1) {
    // Every third round is clean, so both the older and the newer merges hold both kinds.
    const conflict = made < conflicts && (r % 3 !== 2 || rounds - r <= conflicts - made);
    if (conflict) made += 1;
    const s = START + r * 24 * HOUR;
    const file = `src/file-${r}.ts`;
    const base = lines(`f${r}_`);
    history.branch(`feature-${r}`, 'main');
    history.commit(`feature-${r}`, { message: `side ${r}`, at: s + HOUR, files: { [file]: withLines(base, { 10: 'export const side = 1;' }) } }, `side-${r}`);
    history.commit(
      'main',
      {
        message: `main ${r}`,
        at: s + 2 * HOUR,
        files: { [file]: withLines(base, conflict ? { 10: 'export const main = 1;' } : { 16: 'export const main = 1;' }) },
      },
      `main-${r}`,
    );
    expected.push(conflict);
    // A conflict's merge commit holds the resolution; a clean one what `git merge` writes (both edits).
    const merged: Record<number, string> = conflict ? { 10: 'export const both = 1;' } : { 10: 'export const side = 1;', 16: 'export const main = 1;' };
    history.merge('main', `feature-${r}`, { message: `Merge feature-${r}`, at: s + 6 * HOUR, files: { [file]: withLines(base, merged) } });
  }
  const { repo, commits } = history.write();
  // git itself conflicts on exactly the merges meant to conflict (the old build ran `git merge`).
  const pairs = expected.map((_, r) => [commits[`main-${r}`]!, commits[`side-${r}`]!] as const);
  expect(mergeConflicts(repo, pairs)).toEqual(expected);
  return repo;
}

describe('calibrate with enough history', () => {
  let repo: string;
  beforeAll(() => {
    repo = buildHistory(16, 8);
  }, 240_000);
  afterAll(() => removeDir(repo));

  it('fits on the older merges, shows before / after on the newer ones, and writes nothing without --write', () => {
    const result = runCli(repo, ['calibrate', '--merges', '50', '--json']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json).toMatchObject({ mergesFound: 24, scored: 24, conflicts: 16, written: null });
    expect(json.calibration).toMatchObject({ fitMerges: 16, testMerges: 8, keep: false });
    // The defaults warn about the clean merges 5 lines apart; the fitted τ_TA does not.
    expect(json.calibration.before.ta.precision).toBeLessThan(1);
    expect(json.calibration.after.ta).toMatchObject({ precision: 1, recall: 1 });
    expect(json.calibration.after.evidenceRA).toMatchObject({ precision: 1, recall: 1 });
    expect(json.calibration.proposed.tauTA).toBeLessThan(json.calibration.proposed.tauRA);
    expect(existsSync(join(repo, '.airspacerc.json'))).toBe(false);
    // The text form of this same outcome through the command's own renderer (a second CLI run
    // cost ~3.4 s CPU); the --write run below and the too-little case print text end to end.
    const { written, ...outcome } = json;
    const text = renderCalibrate({ result: outcome, written, minConflicts: MIN_CONFLICTS });
    expect(text).toMatch(/^calibrate: 24 merge\(s\) scored .*fitted on the 16 oldest, checked on the 8 newest/);
    expect(text).toMatch(/before .*warnings \(TA\) precision/);
    expect(text).toMatch(/after .*warnings \(TA\) precision 1\.00 recall 1\.00/);
    expect(text).toContain('nothing written (pass --write');
  }, 240_000);

  it('--write writes the model keys only, and the hooks read them back', () => {
    writeFiles(repo, { '.airspacerc.json': JSON.stringify({ remote: 'upstream', model: { halfLifeHours: 12 } }, null, 2) + '\n' });
    const result = runCli(repo, ['calibrate', '--merges', '50', '--write']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^calibrate: 24 merge\(s\) scored .*fitted on the 16 oldest, checked on the 8 newest/);
    expect(result.stdout).toContain('wrote the model values to');
    const written = JSON.parse(readFileSync(join(repo, '.airspacerc.json'), 'utf8'));
    expect(written.remote).toBe('upstream');
    expect(written.model.halfLifeHours).toBe(12);
    expect(Object.keys(written.model.weights).sort()).toEqual(['breadth', 'dependency', 'overlap', 'proximity', 'tree']);
    expect(written.model.tauTA).toBeLessThanOrEqual(written.model.tauRA);
    expect(runCli(repo, ['doctor', '--json']).stderr).not.toMatch(/invalid/i);
  }, 240_000);
});

describe('calibrate with too little history', () => {
  it('says so in one line, keeps the defaults and exits 0', () => {
    const repo = buildHistory(3, 2);
    try {
      const result = runCli(repo, ['calibrate', '--write']);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout.trim().split('\n')).toHaveLength(1);
      expect(result.stdout).toMatch(/3 conflicting merge\(s\) among 5 scored; at least 15 are needed .* defaults are kept/);
      expect(existsSync(join(repo, '.airspacerc.json'))).toBe(false);
    } finally {
      removeDir(repo);
    }
  }, 240_000);
});
