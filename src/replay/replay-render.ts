/**
 * The text form of a replay: one short table of ROC-AUC per moment, the advisories' precision and
 * recall at the primary moment, and what was skipped and why. JSON output is the result itself.
 */
import { replayMessages as m } from '../messages/evaluation.js';
import type { ReplaySkip } from './replay-collect.js';
import type { ReplayResult } from './replay-run.js';
import { REPLAY_PREDICTORS, type FlagFigures } from './replay-score.js';

const num = (value: number | null, digits = 3): string => (value === null ? m.notApplicable : value.toFixed(digits));

function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  return rows.map((row) =>
    row
      .map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!)))
      .join('  ')
      .trimEnd(),
  );
}

function flagLines(name: string, figures: { ta: FlagFigures; ra: FlagFigures }): string[] {
  return (['TA', 'RA'] as const).map((level) => {
    const f = level === 'TA' ? figures.ta : figures.ra;
    return `  ${m.flagLine(name, level, f.flagged, num(f.precision, 2), num(f.recall, 2))}`;
  });
}

/** Skips grouped by (moment, reason), whole-merge skips first. */
export function groupSkips(skipped: readonly ReplaySkip[]): { fraction?: number; reason: ReplaySkip['reason']; count: number }[] {
  const groups = new Map<string, { fraction?: number; reason: ReplaySkip['reason']; count: number }>();
  for (const skip of skipped) {
    const key = `${skip.fraction ?? ''}|${skip.reason}`;
    const group = groups.get(key) ?? { ...(skip.fraction !== undefined ? { fraction: skip.fraction } : {}), reason: skip.reason, count: 0 };
    group.count += 1;
    groups.set(key, group);
  }
  return [...groups.values()].sort((x, y) => (x.fraction ?? -1) - (y.fraction ?? -1));
}

export function renderReplayText(result: ReplayResult): string {
  const header = ['', ...result.moments.map((moment) => `f = ${moment.fraction}`)];
  const rows = [
    header,
    [m.casesRow, ...result.moments.map((moment) => `${moment.cases} (${moment.conflicts})`)],
    ...REPLAY_PREDICTORS.map((p) => [m.predictors[p], ...result.moments.map((moment) => num(moment.auc[p]))]),
  ];
  const primary = result.moments.find((moment) => moment.fraction === result.primary)!;
  const lines = [
    m.heading(result.mergesFound, result.labelled, result.conflicting, (result.elapsedMs / 1000).toFixed(1)),
    m.momentsNote,
    '',
    m.aucTitle,
    ...table(rows).map((line) => `  ${line}`),
    ...(result.undefinedAuc ? [`  ${result.undefinedAuc}`] : []),
    '',
    m.flagsTitle(primary.fraction),
    ...flagLines(m.predictors.engine, primary.engine),
    ...flagLines(m.predictors.engineNoMerge, primary.engineNoMerge),
    '',
    ...groupSkips(result.skipped).map((g) => m.skippedLine(g.count, m.skipReasons[g.reason], g.fraction)),
    m.graphLine(result.graph.source, result.graph.files, result.graph.approximation),
  ];
  return lines.join('\n');
}
