import { renderReplayText } from '../replay/replay-render.js';
import { replayHistory, type ReplayOptions, type ReplayResult } from '../replay/replay-run.js';

/**
 * `replay`: the model on this repository's own merge history (see docs/decisions/replay.md), with
 * its text rendering; the renderer shares the predictor list with the scorer, so both come from here.
 */
export async function replayRepository(cwd: string, options: ReplayOptions): Promise<{ result: ReplayResult; text: () => string }> {
  const result = await replayHistory(cwd, options);
  return { result, text: () => renderReplayText(result) };
}
