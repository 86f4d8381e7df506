import { EXIT } from '../../errors.js';
import type { ModelScore } from '../../app/calibrate.js';
import { calibrateMessages as m } from '../../messages/evaluation.js';
import type { Output } from '../../report/output.js';
import { jsonText } from '../../report/sanitize-text.js';
import { calibrateModel, type CalibrateOutcome } from '../../app/calibrate.js';
import { interruptSignal } from '../interrupt-signal.js';

export interface CalibrateArgs {
  readonly merges: number;
  readonly write: boolean;
  readonly json: boolean;
}

const row = (name: string, s: ModelScore): string => m.row(name, s.auc, s.ta.precision, s.ta.recall, s.predictedRA.precision, s.predictedRA.recall);

/** The text form of an outcome; exported so test/integration/calibrate-history.test.ts renders its JSON run with it. */
export function renderCalibrate({ result, written, minConflicts }: CalibrateOutcome): string {
  const c = result.calibration;
  if (c === null) return m.tooLittle(result.conflicts, result.scored, minConflicts);
  const weights = Object.entries(c.proposed.weights)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return [
    m.heading(result.scored, result.conflicts, c.fitMerges, c.testMerges),
    row(m.before, c.before),
    row(m.after, c.after),
    m.evidence(c.before.evidenceRA.precision, c.before.evidenceRA.recall, c.before.evidenceRA.flagged),
    m.proposed(weights, c.proposed.tauTA, c.proposed.tauRA, c.proposed.intentWeight),
    ...(result.skipped.length > 0 ? [m.skipped(result.skipped.length)] : []),
    c.keep ? m.keep : written !== null ? m.written(written) : m.dryRun,
  ].join('\n');
}

/**
 * `calibrate`: fits τ_TA / τ_RA and the weights on this repository's merges (validated by time) and
 * writes the `model` keys only with `--write`, and only when the fit beat the current model on the
 * newest merges. Too little history is one line and exit 0: the defaults stay. Ctrl-C kills its git
 * processes and ends it.
 */
export async function calibrateCommand(cwd: string, args: CalibrateArgs, output: Output): Promise<number> {
  const outcome = await calibrateModel(cwd, { merges: args.merges, write: args.write, signal: interruptSignal() });
  output.out(args.json ? jsonText({ ...outcome.result, written: outcome.written }) : renderCalibrate(outcome));
  return EXIT.ok;
}
