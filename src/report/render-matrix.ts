import type { Link } from '../engine/types.js';
import type { AirspaceReport } from './check-report.js';
import { sanitizeText } from './sanitize-text.js';
import type { Style } from './terminal-style.js';

/**
 * The matrix of a report. A scan lists only pairs with contact: a cell with no link is then clear
 * without contact ("-"), unless one of its agents could not be compared ("?").
 */
export function renderReportMatrix(report: AirspaceReport, style: Style): string[] {
  const unknown = new Set(report.unknown.map((u) => u.id));
  return renderPairMatrix(
    report.agents.map((a) => a.id),
    report.links,
    style,
    report.pairs.clearWithoutContact > 0 ? (a, b) => !unknown.has(a) && !unknown.has(b) : () => false,
  );
}

/**
 * A compact pair matrix for `scan`: one row and one column per agent, the risk in each cell,
 * coloured by level. Agents are numbered so long branch names do not blow up the width.
 */
function renderPairMatrix(
  agentIds: readonly string[],
  links: readonly Link[],
  style: Style,
  clearWhenUnlisted: (a: string, b: string) => boolean = () => false,
  maxAgents = 12,
): string[] {
  if (agentIds.length < 2) return [];
  const shown = agentIds.slice(0, maxAgents);
  const index = new Map(shown.map((id, i) => [id, i]));
  const cell = new Map<string, Link>();
  for (const link of links) {
    const i = index.get(link.a);
    const j = index.get(link.b);
    if (i === undefined || j === undefined) continue;
    cell.set(`${i},${j}`, link);
    cell.set(`${j},${i}`, link);
  }
  const lines = shown.map((id, i) => `  ${String(i + 1).padStart(2)}  ${sanitizeText(id, { maxLength: 60 })}`);
  lines.push(`      ${shown.map((_, j) => String(j + 1).padStart(5)).join('')}`);
  shown.forEach((_, i) => {
    const cells = shown.map((__, j) => {
      if (i === j) return style.dim('    ·');
      const link = cell.get(`${i},${j}`);
      if (!link) return style.dim(clearWhenUnlisted(shown[i]!, shown[j]!) ? '    -' : '    ?');
      const text = link.risk.toFixed(2).padStart(5);
      return link.level === 'RA' ? style.red(style.bold(text)) : link.level === 'TA' ? style.yellow(text) : style.dim(text);
    });
    lines.push(`  ${String(i + 1).padStart(2)}  ${cells.join('')}`);
  });
  if (agentIds.length > maxAgents) lines.push(style.dim(`  … ${agentIds.length - maxAgents} more agents (use --json)`));
  return lines;
}
