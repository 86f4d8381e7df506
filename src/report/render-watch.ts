import { watchMessages } from '../messages/agent-views.js';
import type { AirspaceReport } from './check-report.js';
import { renderReportMatrix } from './render-matrix.js';
import { renderReportText } from './render-text.js';
import type { Style } from './terminal-style.js';

/** One frame of the live view: the pair matrix, the advisories, a footer. Cleared first on a terminal. */
export function renderWatchFrame(report: AirspaceReport, style: Style, options: { clear: boolean; at: number }): string {
  const worktrees = report.agents.filter((agent) => agent.kind === 'ownship' || agent.kind === 'worktree').length;
  const frame = [...renderReportMatrix(report, style), renderReportText(report, style), '', style.dim(watchMessages.footer(worktrees, options.at))].join('\n');
  return options.clear ? `\x1b[2J\x1b[H${frame}` : frame;
}
