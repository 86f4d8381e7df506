import { renderReplayText } from '../replay/replay-render.js';
import { checkReplayMerges, replayHistory, type ReplayOptions, type ReplayResult } from '../replay/replay-run.js';
import { inHistoryRun } from '../replay/history-run.js';
import { openRepository } from '../run/open-repository.js';

/**
 * `replay`: the model on this repository's own merge history (see docs/decisions/replay.md), with
 * its text rendering; the renderer shares the predictor list with the scorer, so both come from here.
 * Opened and cancelled as every run is: the repository and its validated config from
 * openRepository, and one signal (Ctrl-C from the CLI) that every git process of the replay dies with.
 */
export async function replayRepository(cwd: string, options: ReplayOptions): Promise<{ result: ReplayResult; text: () => string }> {
  checkReplayMerges(options.merges);
  const result = await inHistoryRun(options.signal, async (signal) => {
    const { repo, config } = await openRepository(cwd);
    return replayHistory(repo, config, { ...options, signal });
  });
  return { result, text: () => renderReplayText(result) };
}
