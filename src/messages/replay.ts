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
