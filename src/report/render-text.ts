import type { LineRange, Link } from '../engine/types.js';
import { checkMessages as m, formatAge, reportMessages as r } from '../messages/hooks-and-check.js';
import { coverageMessages } from '../messages/setup.js';
import { graphMessages, symbolMessages } from '../messages/channels.js';
import type { AgentFactsReport, AirspaceReport, ReportLink } from './check-report.js';
import { sanitizeText } from './sanitize-text.js';
import type { Style } from './terminal-style.js';

/**
 * The human view of a report: short, one block per advisory, the most important line first.
 * Everything that came from a peer (ids, paths, subjects, notes) is untrusted and goes through
 * `sanitizeText` (src/report/sanitize-text.ts) so no escape sequence reaches the terminal.
 */

const MAX_RANGES = 4;
const MAX_FILES = 5;
const MAX_SUBJECTS = 3;
const MAX_SYMBOLS = 3;

export function formatRanges(ranges: readonly LineRange[] | undefined): string {
  if (!ranges) return m.wholeFile;
  const parts = ranges.slice(0, MAX_RANGES).map(([s, e]) => (e < s ? `^${s}` : e === s ? `${s}` : `${s}-${e}`));
  return parts.join(',') + (ranges.length > MAX_RANGES ? ',…' : '');
}

/** True when a rendered range of this advisory uses the `^N` insertion-point notation. */
function showsInsertionPoint(link: Link): boolean {
  const shown = (ranges: readonly LineRange[] | undefined) => (ranges ?? []).slice(0, MAX_RANGES).some(([s, e]) => e < s);
  return link.sharedFiles.slice(0, MAX_FILES).some((file) => shown(file.rangesA) || shown(file.rangesB));
}

function levelTag(link: Link, style: Style): string {
  if (link.level === 'RA') return style.bold(style.red('RA'));
  if (link.level === 'TA') return style.yellow('TA');
  return style.dim('--');
}

/**
 * Whose view an advisory is told from. With an ownship in the pair, it is "you" against the peer;
 * a pair of two other agents (scan shows every pair) is told as a pair, never as the user's own.
 */
type Viewpoint = { readonly kind: 'own'; readonly peer: string; readonly youAreA: boolean } | { readonly kind: 'pair' };

function viewpointOf(link: Link, own: string | null): Viewpoint {
  if (own !== null && link.a === own) return { kind: 'own', peer: link.b, youAreA: true };
  if (own !== null && link.b === own) return { kind: 'own', peer: link.a, youAreA: false };
  return { kind: 'pair' };
}

/** The channels that moved the risk: a channel weighted 0 is computed but says nothing here. */
function channelSummary(link: Link, weights: Readonly<Record<string, number>>): string {
  return Object.entries(link.channels)
    .filter(([name, r]) => r > 0 && (weights[name] ?? 1) > 0)
    .sort((x, y) => y[1] - x[1])
    .map(([name, r]) => `${name} ${r.toFixed(2)}`)
    .join(', ');
}

function renderAdvisory(link: ReportLink, report: AirspaceReport, style: Style): string[] {
  const view = viewpointOf(link, report.scanned.ownship);
  const agents = new Map(report.agents.map((a) => [a.id, a]));
  const a = sanitizeText(link.a);
  const b = sanitizeText(link.b);
  const name = view.kind === 'own' ? sanitizeText(view.peer) : r.pairName(a, b);
  const lines = [
    `${levelTag(link, style)}  ${style.bold(name)}  risk ${link.risk.toFixed(2)}${link.driver ? ` (${link.driver})` : ''}  ${style.dim(channelSummary(link, report.scanned.weights))}`,
  ];
  if (link.escalated && link.closureRate !== undefined) lines.push(`    ${style.yellow(m.escalated(link.closureRate))}`);
  // Block on evidence, warn on prediction: say which one this advisory is.
  for (const seen of link.evidence ?? []) lines.push(`    ${style.red(m.evidence(sanitizeText(seen.text, { maxLength: 300 })))}`);
  if (link.predictedRA) lines.push(`    ${style.yellow(link.channels.merge === undefined ? m.predictedRAUnmerged : m.predictedRA)}`);
  for (const file of link.sharedFiles.slice(0, MAX_FILES)) {
    const path = sanitizeText(file.path);
    if (view.kind === 'pair') lines.push(`    ${r.overlapPair(path, a, formatRanges(file.rangesA), b, formatRanges(file.rangesB))}`);
    else {
      const mine = view.youAreA ? file.rangesA : file.rangesB;
      const theirs = view.youAreA ? file.rangesB : file.rangesA;
      lines.push(`    ${m.overlap(path, formatRanges(mine), formatRanges(theirs))}`);
    }
  }
  if (link.sharedFiles.length > MAX_FILES) lines.push(`    … ${link.sharedFiles.length - MAX_FILES} more files`);
  // A collision that is already the evidence line above is not told twice.
  const told = (link.evidence ?? []).filter((e) => e.channel === 'symbol').map((e) => e.text);
  const symbols = (link.symbols ?? []).filter((c) => !told.some((text) => text.startsWith(symbolMessages.collision(c, null))));
  for (const c of symbols.slice(0, MAX_SYMBOLS)) lines.push(`    ${sanitizeText(symbolMessages.collision(c, report.scanned.ownship), { maxLength: 300 })}`);
  if (symbols.length > MAX_SYMBOLS) lines.push(`    … ${symbols.length - MAX_SYMBOLS} more symbol collisions`);
  if (view.kind === 'own') lines.push(...describePeer(agents.get(view.peer), style));
  if (link.level === 'RA' && link.steer && link.hold) {
    const steerer = agents.get(link.steer);
    if (view.kind === 'pair') {
      const pair = m.steerPair(sanitizeText(link.steer), sanitizeText(link.hold));
      lines.push(`    ${steerer?.protection?.protected === false ? coverageMessages.steerPairUnprotected(pair, sanitizeText(link.steer)) : pair}`);
    } else if (link.steer === report.scanned.ownship) {
      lines.push(
        `    ${style.red(m.steer(sanitizeText(view.peer)))}`,
        ...(link.holdReason ? [`    ${m.holdReason[link.holdReason]}`] : []),
        `    ${m.whatToDo}`,
      );
      // Told by `check` (or a harness's tool) in a worktree whose own push nothing will stop.
      const own = steerer?.protection;
      if (own?.protected === false)
        lines.push(
          `    ${style.yellow(coverageMessages.ownUnprotected(sanitizeText(coverageMessages.why(own)), sanitizeText(coverageMessages.fix(steerer?.worktreePath ?? '.', own))))}`,
        );
    } else lines.push(`    ${style.green(holdLine(sanitizeText(view.peer), agents.get(view.peer), report.scanned.ownWorkShared))}`);
  }
  for (const u of link.unknown ?? []) lines.push(`    ${style.dim(m.unknown(u.channel, sanitizeText(u.reason)))}`);
  return lines;
}

/**
 * A worktree on this machine runs its own check against our working tree, so it is advised now —
 * if git runs our hook there: one that runs none (its own core.hooksPath, say) is never advised,
 * and the line says so with the fix. A peer seen through the remote (a branch, a beacon) sees only
 * what we pushed or published, and whether it runs airspace-hooks at all cannot be known from here:
 * the line promises no more than that.
 */
function holdLine(peer: string, agent: AgentFactsReport | undefined, shared: AirspaceReport['scanned']['ownWorkShared']): string {
  if (agent?.kind !== 'worktree') return r.holdRemote(peer, shared);
  const protection = agent.protection;
  if (protection?.protected !== false) return m.hold(peer);
  return coverageMessages.holdUnprotected(
    peer,
    sanitizeText(coverageMessages.why(protection)),
    sanitizeText(coverageMessages.fix(agent.worktreePath ?? '', protection)),
  );
}

function describePeer(agent: AgentFactsReport | undefined, style: Style): string[] {
  if (!agent) return [];
  const lines: string[] = [];
  if (agent.subjects.length > 0) {
    const subjects = agent.subjects
      .slice(0, MAX_SUBJECTS)
      .map((s) => `"${sanitizeText(s, { maxLength: 72 })}"`)
      .join(', ');
    lines.push(`    ${style.dim(`${m.theirWork}:`)} ${subjects}`);
  }
  if (agent.intent.length > 0)
    lines.push(
      `    ${style.dim(`${m.theirIntent}:`)} ${agent.intent
        .slice(0, MAX_FILES)
        .map((p) => sanitizeText(p))
        .join(', ')}`,
    );
  if (agent.note) lines.push(`    ${style.dim(`${m.theirNote}:`)} ${sanitizeText(agent.note, { maxLength: 200 })}`);
  if (agent.beaconAgeMs !== undefined) {
    const age = formatAge(agent.beaconAgeMs);
    lines.push(`    ${style.dim(agent.beaconStale ? m.beaconStale(age) : m.beaconAge(age, agent.machine ? sanitizeText(agent.machine) : undefined))}`);
  }
  if (agent.branchGone && agent.branch !== null) lines.push(`    ${style.yellow(m.beaconBranchGone(sanitizeText(agent.branch)))}`);
  return lines;
}

function renderScanned(report: AirspaceReport, style: Style): string[] {
  const s = report.scanned;
  const parts: string[] = [];
  const f = s.fetch;
  if (f.ok === false && f.reason) parts.push(m.fetchFailed(sanitizeText(f.reason)));
  // The user's own `git fetch` moved their remote-tracking refs after ours (or we never fetched):
  // discovery reads the newer tips, so the report says how old theirs is, not "never fetched".
  else if (f.userFetchAgeMs !== null && (f.ageMs === null || f.userFetchAgeMs < f.ageMs))
    parts.push(m.userFetchAge(formatAge(f.userFetchAgeMs), f.ageMs !== null ? formatAge(f.ageMs) : null));
  else if (f.ageMs !== null) parts.push(m.fetchAge(formatAge(f.ageMs)));
  // A fresh clone's first pre-commit: no fetch of ours or theirs yet, yet a remote to fetch from.
  else if (f.remote || s.peers.branches > 0 || f.attempted) parts.push(m.neverFetched);
  // The graph layer's own "not built yet" warning says the same as graphNone: say it once.
  const notBuilt = graphMessages.cacheMissing();
  if (s.graph.source === 'none') parts.push(m.graphNone);
  else if (s.graph.stale && s.graph.builtAt !== null) parts.push(m.graphStale(formatAge(s.at - s.graph.builtAt), s.graph.changedSinceBuild));
  for (const warning of s.graph.warnings.filter((w) => w !== notBuilt)) parts.push(sanitizeText(warning, { maxLength: 300 }));
  for (const what of s.skipped) parts.push(m.skipped(sanitizeText(what, { maxLength: 300 })));
  return parts.map((p) => style.dim(`  ${p}`));
}

function header(report: AirspaceReport, style: Style): string {
  const own = report.agents.find((a) => a.kind === 'ownship');
  const peers = report.agents.length - (own ? 1 : 0);
  const base = m.header(own ? sanitizeText(own.id) : null, own ? peers : report.agents.length);
  const work = own
    ? ` (${own.commits !== undefined ? r.ownWork(own.commits, own.uncommittedFiles) : m.ownWork(own.committedFiles, own.uncommittedFiles)})`
    : '';
  const sources = m.sources(report.scanned.peers);
  return `${style.bold(base)}${work} ${style.dim(`· ${sources} · ${report.scanned.durationMs} ms`)}`;
}

const MAX_PARTLY_CHECKED = 5;

/** The peer's id when the ownship is one side, else both ids. */
function pairName(link: ReportLink, ownship: string | null): string {
  if (link.a === ownship) return sanitizeText(link.b);
  if (link.b === ownship) return sanitizeText(link.a);
  return `${sanitizeText(link.a)} ↔ ${sanitizeText(link.b)}`;
}

export function renderReportText(report: AirspaceReport, style: Style): string {
  const lines = [header(report, style)];
  for (const link of report.advisories) lines.push(...renderAdvisory(link, report, style));
  // A scan lists only pairs with contact; the pairs without are clear and counted.
  const clear = report.links.length - report.advisories.length + report.pairs.clearWithoutContact;
  // A clear link with a channel that could not be computed (cut by the budget, unreadable) is clear
  // on what was checked only: "all clear" would claim more than the run saw.
  const partlyChecked = report.links.filter((l) => l.level === 'clear' && (l.unknown?.length ?? 0) > 0);
  if (report.pairs.compared === 0 && report.unknown.length === 0) lines.push(`  ${m.noTraffic}`);
  else if (report.advisories.length === 0 && report.unknown.length === 0 && partlyChecked.length === 0) lines.push(style.green(`  ${m.allClear}`));
  else if (clear > 0) lines.push(style.dim(`  ${report.command === 'scan' ? r.clearPairs(clear) : m.clearSummary(clear)}`));
  for (const l of partlyChecked.slice(0, MAX_PARTLY_CHECKED)) {
    const who = pairName(l, report.scanned.ownship);
    for (const u of l.unknown ?? []) lines.push(style.yellow(`  ${m.unknown(`${who}: ${u.channel}`, sanitizeText(u.reason))}`));
  }
  if (partlyChecked.length > MAX_PARTLY_CHECKED) lines.push(style.yellow(`  ${m.moreUnknown(partlyChecked.length - MAX_PARTLY_CHECKED)}`));
  if (report.advisories.some(showsInsertionPoint)) lines.push(style.dim(`  ${r.insertionLegend}`));
  for (const u of report.unknown) lines.push(style.yellow(`  ${m.unknown(sanitizeText(u.id), sanitizeText(u.reason))}`));
  if (report.inbox.length > 0) {
    lines.push(style.bold(m.inboxHeader));
    for (const note of report.inbox) lines.push(`  ${note.level} ${sanitizeText(note.from)}: ${sanitizeText(note.text, { maxLength: 300 })}`);
  }
  lines.push(...renderScanned(report, style));
  if (report.verdict?.block) lines.push(style.red(style.bold(report.hook ? m.blocked(report.hook) : m.blockedScan)));
  return lines.join('\n');
}
