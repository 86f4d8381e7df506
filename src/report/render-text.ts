import type { LineRange, Link } from '../engine/types.js';
import { checkMessages as m, formatAge } from '../messages/check.js';
import type { AgentFactsReport, AirspaceReport } from './check-report.js';
import { sanitizeText } from './sanitize-text.js';
import type { Style } from './terminal-style.js';

/**
 * The human view of a report: short, one block per advisory, the most important line first.
 * Everything that came from a peer (ids, paths, subjects, notes) is untrusted and goes through
 * `safeText` so no escape sequence reaches the terminal.
 */

const MAX_RANGES = 4;
const MAX_FILES = 5;
const MAX_SUBJECTS = 3;

export function formatRanges(ranges: readonly LineRange[] | undefined): string {
  if (!ranges) return m.wholeFile;
  const parts = ranges.slice(0, MAX_RANGES).map(([s, e]) => (e < s ? `^${s}` : e === s ? `${s}` : `${s}-${e}`));
  return parts.join(',') + (ranges.length > MAX_RANGES ? ',…' : '');
}

function levelTag(link: Link, style: Style): string {
  if (link.level === 'RA') return style.bold(style.red('RA'));
  if (link.level === 'TA') return style.yellow('TA');
  return style.dim('--');
}

function peerOf(link: Link, own: string | null): { peer: string; youAreA: boolean } {
  if (own !== null && link.b === own) return { peer: link.a, youAreA: false };
  return { peer: link.b, youAreA: true };
}

/** The channels that moved the risk: a channel weighted 0 is computed but says nothing here. */
function channelSummary(link: Link, weights: Readonly<Record<string, number>>): string {
  return Object.entries(link.channels)
    .filter(([name, r]) => r > 0 && (weights[name] ?? 1) > 0)
    .sort((x, y) => y[1] - x[1])
    .map(([name, r]) => `${name} ${r.toFixed(2)}`)
    .join(', ');
}

function renderAdvisory(link: Link, report: AirspaceReport, style: Style): string[] {
  const own = report.scanned.ownship;
  const agents = new Map(report.agents.map((a) => [a.id, a]));
  const { peer, youAreA } = own === null ? { peer: link.b, youAreA: true } : peerOf(link, own);
  const name = own === null ? `${sanitizeText(link.a)} ~ ${sanitizeText(link.b)}` : sanitizeText(peer);
  const lines = [
    `${levelTag(link, style)}  ${style.bold(name)}  risk ${link.risk.toFixed(2)}${link.driver ? ` (${link.driver})` : ''}  ${style.dim(channelSummary(link, report.scanned.weights))}`,
  ];
  if (link.escalated && link.closureRate !== undefined) lines.push(`    ${style.yellow(m.escalated(link.closureRate))}`);
  // Block on evidence, warn on prediction: say which one this advisory is.
  for (const seen of link.evidence ?? []) lines.push(`    ${style.red(m.evidence(sanitizeText(seen.text, { maxLength: 300 })))}`);
  if (link.predictedRA) lines.push(`    ${style.yellow(m.predictedRA)}`);
  for (const file of link.sharedFiles.slice(0, MAX_FILES)) {
    const mine = youAreA ? file.rangesA : file.rangesB;
    const theirs = youAreA ? file.rangesB : file.rangesA;
    lines.push(`    ${m.overlap(sanitizeText(file.path), formatRanges(mine), formatRanges(theirs))}`);
  }
  if (link.sharedFiles.length > MAX_FILES) lines.push(`    … ${link.sharedFiles.length - MAX_FILES} more files`);
  if (own !== null) lines.push(...describePeer(agents.get(peer), style));
  if (link.level === 'RA' && link.steer && link.hold) {
    if (own === null) lines.push(`    ${m.steerPair(sanitizeText(link.steer), sanitizeText(link.hold))}`);
    else if (link.steer === own) lines.push(`    ${style.red(m.steer(sanitizeText(peer)))}`, `    ${m.whatToDo}`);
    else lines.push(`    ${style.green(m.hold(sanitizeText(peer)))}`);
  }
  for (const u of link.unknown ?? []) lines.push(`    ${style.dim(m.unknown(u.channel, sanitizeText(u.reason)))}`);
  return lines;
}

function describePeer(agent: AgentFactsReport | undefined, style: Style): string[] {
  if (!agent) return [];
  const lines: string[] = [];
  if (agent.subjects.length > 0) {
    const subjects = agent.subjects.slice(0, MAX_SUBJECTS).map((s) => `"${sanitizeText(s, { maxLength: 72 })}"`).join(', ');
    lines.push(`    ${style.dim(`${m.theirWork}:`)} ${subjects}`);
  }
  if (agent.intent.length > 0) lines.push(`    ${style.dim(`${m.theirIntent}:`)} ${agent.intent.slice(0, MAX_FILES).map((p) => sanitizeText(p)).join(', ')}`);
  if (agent.note) lines.push(`    ${style.dim(`${m.theirNote}:`)} ${sanitizeText(agent.note, { maxLength: 200 })}`);
  return lines;
}

function renderScanned(report: AirspaceReport, style: Style): string[] {
  const s = report.scanned;
  const parts: string[] = [];
  if (s.fetch.ok === false && s.fetch.reason) parts.push(m.fetchFailed(sanitizeText(s.fetch.reason)));
  else if (s.fetch.ageMs !== null) parts.push(m.fetchAge(formatAge(s.fetch.ageMs)));
  else if (s.peers.branches > 0 || s.fetch.attempted) parts.push(m.neverFetched);
  if (s.graph.source === 'none') parts.push(m.graphNone);
  else if (s.graph.stale && s.graph.builtAt !== null) parts.push(m.graphStale(formatAge(s.at - s.graph.builtAt), s.graph.changedSinceBuild));
  for (const warning of s.graph.warnings) parts.push(sanitizeText(warning, { maxLength: 300 }));
  for (const what of s.skipped) parts.push(m.skipped(sanitizeText(what, { maxLength: 300 })));
  return parts.map((p) => style.dim(`  ${p}`));
}

function header(report: AirspaceReport, style: Style): string {
  const own = report.agents.find((a) => a.kind === 'ownship');
  const peers = report.agents.length - (own ? 1 : 0);
  const base = m.header(own ? sanitizeText(own.id) : null, own ? peers : report.agents.length);
  const work = own ? ` (${m.ownWork(own.committedFiles, own.uncommittedFiles)})` : '';
  const p = report.scanned.peers;
  const sources = [`${p.worktrees} worktrees`, `${p.branches} branches`, `${p.beacons} beacons`, ...(p.explicit ? [`${p.explicit} given`] : [])].join(', ');
  return `${style.bold(base)}${work} ${style.dim(`· ${sources} · ${report.scanned.durationMs} ms`)}`;
}

export function renderReportText(report: AirspaceReport, style: Style): string {
  const lines = [header(report, style)];
  for (const link of report.advisories) lines.push(...renderAdvisory(link, report, style));
  const clear = report.links.length - report.advisories.length;
  if (report.links.length === 0 && report.unknown.length === 0) lines.push(`  ${m.noTraffic}`);
  else if (report.advisories.length === 0 && report.unknown.length === 0) lines.push(style.green(`  ${m.allClear}`));
  else if (clear > 0) lines.push(style.dim(`  ${m.clearSummary(clear)}`));
  for (const u of report.unknown) lines.push(style.yellow(`  ${m.unknown(sanitizeText(u.id), sanitizeText(u.reason))}`));
  if (report.inbox.length > 0) {
    lines.push(style.bold(m.inboxHeader));
    for (const note of report.inbox) lines.push(`  ${note.level} ${sanitizeText(note.from)}: ${sanitizeText(note.text, { maxLength: 300 })}`);
  }
  lines.push(...renderScanned(report, style));
  if (report.verdict?.block) lines.push(style.red(style.bold(report.hook ? m.blocked(report.hook) : m.blockedScan)));
  return lines.join('\n');
}
