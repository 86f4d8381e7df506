import { mcpMessages } from '../messages/agent-views.js';
import type { AirspaceReport } from '../report/check-report.js';
import type { PeerDiffReport } from '../report/peer-diff-report.js';
import { sanitizeText } from '../report/sanitize-text.js';

/** The short text an agent reads first; the full report follows as JSON. Peer text is sanitized. */
const MAX_LINES = 10;

export function summarizeReport(report: AirspaceReport): string {
  const head =
    report.command === 'check'
      ? mcpMessages.checkSummary(
          report.advisories.length,
          (report.verdict?.steerFrom ?? []).map(clean),
          (report.verdict?.holdAgainst ?? []).map(clean),
          (report.verdict?.unadvised ?? []).map(clean),
        )
      : mcpMessages.scanSummary(report.agents.length, report.pairs.compared, report.advisories.length);
  const lines = report.advisories.slice(0, MAX_LINES).map((link) =>
    mcpMessages.advisoryLine(
      link.predictedRA ? mcpMessages.predictedRA : link.level,
      clean(link.a),
      clean(link.b),
      link.risk,
      link.sharedFiles.slice(0, 5).map((f) => clean(f.path)),
    ),
  );
  return [head, ...lines].join('\n');
}

export function summarizePeerDiff(report: PeerDiffReport): string {
  const hunks = report.files.reduce((n, f) => n + f.hunks.length, 0);
  return mcpMessages.peerDiffSummary(clean(report.peer), report.files.length, hunks, report.cut.files + report.cut.hunks);
}

const clean = (text: string) => sanitizeText(text, { maxLength: 120 });
