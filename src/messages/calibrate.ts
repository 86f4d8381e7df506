/** User-facing text of `airspace-hooks calibrate` (src/replay/calibrate*.ts, src/cli/commands/calibrate-command.ts). */
const pct = (x: number | null): string => (x === null ? 'n/a' : x.toFixed(2));

export const calibrateMessages = {
  command: "fit the thresholds and weights to this repository's own merge history",
  mergesOption: 'how many recent merges to learn from',
  writeOption: 'write the fitted values into the config (model keys only)',
  badMergeCount: (value: unknown) => `--merges must be a positive whole number, not ${String(value)}`,
  tooLittle: (conflicts: number, scored: number, min: number) =>
    `calibrate: ${conflicts} conflicting merge(s) among ${scored} scored; at least ${min} are needed to fit anything, so the defaults are kept (try a larger --merges)`,
  heading: (scored: number, conflicts: number, fit: number, test: number) =>
    `calibrate: ${scored} merge(s) scored half-way through their work (${conflicts} conflicting); fitted on the ${fit} oldest, checked on the ${test} newest`,
  row: (name: string, auc: number | null, taP: number | null, taR: number | null, raP: number | null, raR: number | null) =>
    `  ${name.padEnd(7)} ROC-AUC ${pct(auc)}   warnings (TA) precision ${pct(taP)} recall ${pct(taR)}   risk ≥ τ_RA precision ${pct(raP)} recall ${pct(raR)}`,
  before: 'before',
  after: 'after',
  evidence: (p: number | null, r: number | null, flagged: number) =>
    `  blocks (RA on evidence: the two states conflict in git merge-tree) precision ${pct(p)} recall ${pct(r)} (${flagged} flagged): no threshold, the same before and after`,
  proposed: (weights: string, tauTA: number, tauRA: number, intent: number | null) =>
    `fitted on all merges: weights ${weights}; tauTA ${tauTA}; tauRA ${tauRA}${intent === null ? '' : `; intentWeight ${intent}`}`,
  keep: 'the fit does not beat the current model on the newest merges: keeping the current values',
  dryRun: 'nothing written (pass --write to write these values into the config)',
  written: (path: string) => `wrote the model values to ${path}`,
  skipped: (count: number) => `skipped ${count} merge(s) or moment(s) git could not read or replay (see \`airspace-hooks replay\`)`,
} as const;
