import { writeModelConfig } from '../config/write-model-config.js';
import { calibrateRepository, checkCalibrateMerges, MIN_CONFLICTS, type CalibrateResult } from '../replay/calibrate-run.js';
import { inHistoryRun } from '../replay/history-run.js';
import { openRepository } from '../run/open-repository.js';

export type { ModelScore } from '../replay/calibrate-history.js';

export interface CalibrateOutcome {
  readonly result: CalibrateResult;
  /** The config file the fitted `model` keys went to; null for a dry run, a fit that kept the current model, or too little history. */
  readonly written: string | null;
  /** Conflicting merges the fit needs before it proposes anything. */
  readonly minConflicts: number;
}

/**
 * `calibrate`: fits τ_TA / τ_RA and the weights on this repository's merges (validated by time) and,
 * with `write`, writes the `model` keys — only when the fit beat the current model on the newest merges.
 * Opened and cancelled as every run is (openRepository; one signal that every git process dies with).
 */
export async function calibrateModel(cwd: string, options: { merges: number; write: boolean; signal?: AbortSignal }): Promise<CalibrateOutcome> {
  checkCalibrateMerges(options.merges);
  const result = await inHistoryRun(options.signal, async (signal) => {
    const { repo, config } = await openRepository(cwd);
    return calibrateRepository(repo, config, { merges: options.merges, signal });
  });
  const c = result.calibration;
  let written: string | null = null;
  if (options.write && c !== null && !c.keep) {
    const { weights, tauTA, tauRA, intentWeight } = c.proposed;
    written = await writeModelConfig(result.toplevel, result.configSource, { weights, tauTA, tauRA, ...(intentWeight !== null ? { intentWeight } : {}) });
  }
  return { result, written, minConflicts: MIN_CONFLICTS };
}
