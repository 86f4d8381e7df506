import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAirspaceError } from '../../src/errors.js';
import { calibrateModel } from '../../src/app/calibrate.js';
import { replayRepository } from '../../src/app/replay.js';
import { HistoryBuilder } from '../helpers/history-builder.js';
import { removeDir } from '../helpers/temp-repo.js';

/**
 * `replay` and `calibrate` end with the run's signal, as every run does: an abort kills their git
 * processes and the command fails with the cancellation — it does not go on and report every merge
 * left as "skipped" (a git failure otherwise skips just its merge).
 */

const START = 1_704_067_200; // 2024-01-01T00:00:00Z
const HOUR = 3600;

function buildHistory(): string {
  const history = new HistoryBuilder().commit('main', { message: 'initial', at: START - HOUR, files: { 'a.ts': 'export const a = 0;\n' } });
  for (let r = 0; r < 3; r += 1) {
    const s = START + r * 24 * HOUR;
    history.branch(`feature-${r}`, 'main');
    history.commit(`feature-${r}`, { message: `side ${r}`, at: s + HOUR, files: { [`side-${r}.ts`]: `export const side = ${r};\n` } });
    history.commit('main', { message: `main ${r}`, at: s + 2 * HOUR, files: { [`main-${r}.ts`]: `export const main = ${r};\n` } });
    history.merge('main', `feature-${r}`, { message: `Merge branch 'feature-${r}'`, at: s + 6 * HOUR, files: {} });
  }
  return history.write().repo;
}

/** 'cancelled' for the cancellation error, 'finished' for a result, the error itself otherwise. */
const outcome = (run: Promise<unknown>): Promise<unknown> =>
  run.then(
    () => 'finished',
    (error: unknown) => (isAirspaceError(error) && error.code === 'git-cancelled' ? 'cancelled' : error),
  );

describe('replay and calibrate under an aborted signal', () => {
  let repo: string;
  beforeAll(() => {
    repo = buildHistory();
  });
  afterAll(() => removeDir(repo));

  it('replay, aborted after the first merge was read, ends with the cancellation instead of skipping the rest', async () => {
    const controller = new AbortController();
    const run = replayRepository(repo, {
      merges: 10,
      signal: controller.signal,
      onProgress: (event) => {
        if (event.phase === 'sides') controller.abort(new Error('interrupted'));
      },
    });
    expect(await outcome(run)).toBe('cancelled');
  });

  it('calibrate under an aborted signal starts no git and ends with the cancellation', async () => {
    const controller = new AbortController();
    controller.abort(new Error('interrupted'));
    const run = calibrateModel(repo, { merges: 10, write: false, signal: controller.signal });
    expect(await outcome(run)).toBe('cancelled');
  });

  it('without a signal, replay still runs to the end', async () => {
    const { result } = await replayRepository(repo, { merges: 10 });
    expect(result.mergesFound).toBe(3);
    expect(result.skipped).toEqual([]);
  });
});
