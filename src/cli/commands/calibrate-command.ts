import { writeModelConfig } from '../../config/write-model-config.js';
import { EXIT } from '../../errors.js';
import { calibrateRepository, MIN_CONFLICTS, type CalibrateResult } from '../../eval/calibrate-run.js';
import type { ModelScore } from '../../eval/calibrate-history.js';
import { calibrateMessages as m } from '../../messages/calibrate.js';
import type { Output } from '../../report/output.js';

export interface CalibrateArgs {
  readonly merges: number;
  readonly write: boolean;
  readonly json: boolean;
}

const row = (name: string, s: ModelScore): string => m.row(name, s.auc, s.ta.precision, s.ta.recall, s.predictedRA.precision, s.predictedRA.recall);

function render(result: CalibrateResult, written: string | null): string {
  const c = result.calibration;
  if (c === null) return m.tooLittle(result.conflicts, result.scored, MIN_CONFLICTS);
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
 * newest merges. Too little history is one line and exit 0: the defaults stay.
 */
export async function calibrateCommand(cwd: string, args: CalibrateArgs, output: Output): Promise<number> {
  const result = await calibrateRepository(cwd, { merges: args.merges });
  const c = result.calibration;
  let written: string | null = null;
  if (args.write && c !== null && !c.keep) {
    const { weights, tauTA, tauRA, intentWeight } = c.proposed;
    written = await writeModelConfig(result.toplevel, result.configSource, { weights, tauTA, tauRA, ...(intentWeight !== null ? { intentWeight } : {}) });
  }
  output.out(args.json ? JSON.stringify({ ...result, written }, null, 2) : render(result, written));
  return EXIT.ok;
}
