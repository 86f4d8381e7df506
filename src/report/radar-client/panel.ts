/**
 * The details panel: what a hovered or clicked link or agent means — channels, driver, the
 * overlapping files with both sides' line ranges, who holds and who steers. Text only.
 */
import type { Link, ScanResult } from '../../engine/types.js';
import { radarPageText as T } from '../../messages/agent-views.js';
import { symbolMessages } from '../../messages/channels.js';
import type { ReportLink } from '../check-report.js';
import { el, formatRanges, formatRisk, put } from './dom.js';

export function renderLinkPanel(panel: HTMLElement, link: Link): void {
  panel.replaceChildren();
  const head = put(el('div', 'panel-head'), badge(link.level), el('span', 'pair', `${link.a} ↔ ${link.b}`));
  const facts = el('dl', 'facts');
  fact(facts, T.risk, formatRisk(link.risk));
  fact(facts, T.distance, formatRisk(link.distance));
  if (link.driver) fact(facts, T.driver, link.driver);
  if (typeof link.closureRate === 'number') fact(facts, T.closureRate, link.closureRate.toPrecision(3));
  put(panel, head, facts);
  if (link.hold || link.steer) {
    const maneuver = el('div', 'maneuver');
    if (link.hold) put(maneuver, put(el('div', 'hold'), el('b', undefined, link.hold), ` ${T.hold}`));
    if (link.steer) put(maneuver, put(el('div', 'steer'), el('b', undefined, link.steer), ` ${T.steer}`));
    panel.append(maneuver);
  }
  if (link.escalated) panel.append(el('div', 'note', T.escalated));
  panel.append(el('h3', undefined, T.channels));
  const channels = el('div', 'channels');
  for (const [name, value] of Object.entries(link.channels).sort((x, y) => y[1] - x[1])) {
    const bar = el('div', 'bar');
    const fill = el('div', `fill level-${link.level}`);
    fill.style.width = `${Math.round(Math.min(1, Math.max(0, value)) * 100)}%`;
    bar.append(fill);
    put(channels, put(el('div', name === link.driver ? 'channel driver' : 'channel'), el('span', 'name', name), bar, el('span', 'value', formatRisk(value))));
  }
  for (const unknown of link.unknown ?? []) {
    put(channels, put(el('div', 'channel unknown'), el('span', 'name', unknown.channel), el('span', 'reason', `${T.unknown}: ${unknown.reason}`)));
  }
  panel.append(channels);
  const symbols = (link as ReportLink).symbols ?? [];
  if (symbols.length > 0) {
    panel.append(el('h3', undefined, T.symbols));
    const list = el('ul', 'files symbols');
    for (const collision of symbols) {
      list.append(
        put(el('li'), el('div', 'path', `${collision.symbol} · ${collision.change}`), el('div', 'ranges', symbolMessages.collision(collision, null))),
      );
    }
    panel.append(list);
  }
  panel.append(el('h3', undefined, T.sharedFiles));
  if (link.sharedFiles.length === 0) panel.append(el('div', 'note', T.noSharedFiles));
  const files = el('ul', 'files');
  for (const file of link.sharedFiles) {
    const item = put(el('li'), el('div', 'path', file.path));
    const ranges = el('div', 'ranges');
    put(ranges, el('span', 'side', `${link.a}: `), formatRanges(file.rangesA, T.wholeFile));
    const rangesB = put(el('div', 'ranges'), el('span', 'side', `${link.b}: `), formatRanges(file.rangesB, T.wholeFile));
    const meta = el('div', 'meta', `${T.overlap} ${formatRisk(file.overlap)} · ${T.gap} ${file.gap} ${T.lines}`);
    files.append(put(item, ranges, rangesB, meta));
  }
  panel.append(files);
}

export function renderAgentPanel(panel: HTMLElement, id: string, scan: ScanResult, onLink: (link: Link) => void): void {
  panel.replaceChildren();
  const position = scan.positions[id];
  put(panel, put(el('div', 'panel-head'), el('span', 'agent-dot'), el('span', 'pair', id)));
  if (position) {
    const facts = el('dl', 'facts');
    fact(facts, T.position, position.map((v) => v.toFixed(2)).join(', '));
    panel.append(facts);
  }
  panel.append(el('h3', undefined, T.agentLinks));
  const mine = scan.links.filter((l) => l.a === id || l.b === id).sort((x, y) => y.risk - x.risk);
  if (mine.length === 0) panel.append(el('div', 'note', T.noLinks));
  const list = el('ul', 'agent-links');
  for (const link of mine) {
    const other = link.a === id ? link.b : link.a;
    const row = put(el('li'), badge(link.level), el('span', 'other', other), el('span', 'value', formatRisk(link.risk)));
    row.tabIndex = 0;
    row.addEventListener('click', () => onLink(link));
    list.append(row);
  }
  panel.append(list);
}

export function renderEmptyPanel(panel: HTMLElement): void {
  panel.replaceChildren(el('div', 'note', T.panelEmpty));
}

function badge(level: string): HTMLElement {
  return el('span', `badge level-${level}`, level);
}

function fact(list: HTMLElement, name: string, value: string): void {
  put(list, el('dt', undefined, name), el('dd', undefined, value));
}
