/**
 * Measuring the model on history: `replay` and `calibrate` (src/replay/). One section per concern,
 * each opened by a `// --- name: what ---` line; a section exports named message objects (`as
 * const`, or a record typed by its codes) and the few functions that word a typed result. Symbols
 * are imported by name.
 */

// --- replay: airspace-hooks replay ---

/** User-facing text of `airspace-hooks replay` (src/replay/replay-*.ts, src/cli/commands/replay-command.ts). */
/** Keys are the phases of `ReplayProgress` (src/replay/replay-collect.ts). */
const PROGRESS: Readonly<Record<string, string>> = {
  merges: 'listing merges…',
  sides: 'reading merge bases, labels and both sides',
  diff: 'computing working sets at each moment…',
  graph: 'loading the import graph…',
  score: 'scoring',
};

const SKIP_REASONS = {
  'no-merge-base': 'no merge base (unrelated histories or a shallow clone)',
  'label-unknown': 'git merge-tree could not merge the parents',
  'git-failed': 'git could not read the merge (missing objects: a shallow or partial clone?)',
  'side-empty': 'one side had no commit yet at the moment',
  'virtual-merge-failed': 'could not move a side onto the base (virtual merge failed)',
} as const;

export const replayMessages = {
  noMerges: () => 'no two-parent merge reachable from HEAD: replay needs a history with merges',
  badMergeCount: (value: unknown) => `--merges must be a positive whole number, not ${String(value)}`,
  oneClass: (cases: number, conflicts: number, merges: number) =>
    conflicts === 0
      ? `ROC-AUC is undefined: none of the ${cases} merge(s) scored at f = 0.5 conflicted (of ${merges} found); replay needs both conflicting and clean merges (try a larger --merges)`
      : `ROC-AUC is undefined: all ${cases} merge(s) scored at f = 0.5 conflicted (of ${merges} found); replay needs both conflicting and clean merges (try a larger --merges)`,
  progress: (phase: string, done?: number, total?: number) =>
    done !== undefined && total !== undefined
      ? `${PROGRESS[phase] ?? phase} ${done}/${total}`
      : total !== undefined
        ? `${PROGRESS[phase] ?? phase} ${total} case(s)…`
        : (PROGRESS[phase] ?? phase),
  skipReasons: SKIP_REASONS,
  graphApproximation:
    "the import graph is today's (the repository's current graph cache), not each merge base's: edges added or removed since a merge are approximated",
  heading: (merges: number, labelled: number, conflicting: number, seconds: string) =>
    `replayed ${merges} merge(s): ${labelled} labelled, ${conflicting} conflicting (git merge-tree on the two parents) in ${seconds} s`,
  momentsNote: 'moments: both-active axis, cut at f of the way from when both sides exist to the merge (primary f = 0.5)',
  aucTitle: 'ROC-AUC against the final conflict',
  flagsTitle: (fraction: number) => `advisories at f = ${fraction} (thresholds τ_TA / τ_RA from the engine defaults or your config)`,
  predictors: {
    engine: 'engine (all channels, merge included)',
    engineNoMerge: 'engine without the merge channel',
    sharedCount: 'baseline: number of shared files',
    touching: 'baseline: overlapping-or-touching ranges',
  },
  casesRow: 'merges scored (conflicting)',
  flagLine: (name: string, level: 'TA' | 'RA', flagged: number, precision: string, recall: string) =>
    `${name} ${level}: ${flagged} flagged, precision ${precision}, recall ${recall}`,
  skippedLine: (count: number, reason: string, fraction?: number) =>
    `skipped ${count}${fraction === undefined ? ' merge(s)' : ` case(s) at f = ${fraction}`}: ${reason}`,
  notApplicable: 'n/a',
  graphLine: (source: string, files: number, approximation: string) => `graph: ${source}, ${files} file(s); ${approximation}`,
} as const;

// --- calibrate: airspace-hooks calibrate ---

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
