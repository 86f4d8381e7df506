import { EXIT } from '../../errors.js';
import { replayMessages } from '../../messages/evaluation.js';
import type { Output } from '../../report/output.js';
import { jsonText } from '../../report/sanitize-text.js';
import { replayRepository } from '../../app/replay.js';
import { interruptSignal } from '../interrupt-signal.js';

export interface ReplayArgs {
  readonly merges: number;
  readonly json: boolean;
}

/**
 * `replay`: the model on this repository's own merge history (see docs/decisions/replay.md).
 * Advisory only (exit 0, also when the merges are all of one class: the figures say why ROC-AUC is
 * undefined); no merge at all is exit 2 with one line. Ctrl-C kills its git processes and ends it.
 */
export async function replayCommand(cwd: string, args: ReplayArgs, output: Output): Promise<number> {
  const { result, text } = await replayRepository(cwd, {
    merges: args.merges,
    signal: interruptSignal(),
    ...(args.json ? {} : { onProgress: (event) => output.progress(replayMessages.progress(event.phase, event.done, event.total)) }),
  });
  output.out(args.json ? jsonText(result) : text());
  return EXIT.ok;
}
