/**
 * The page's chrome around the 3D view: header with counts, legend, step controls with the
 * story notes, the details panel and the live status line.
 */
import type { RadarFrame } from '../radar-html.js';
import { radarPageText as T } from '../../messages/agent-views.js';
import { AGENT_COLOR, LEVEL_COLOR, OWNSHIP_COLOR, SYMBOL_COLOR, cssColor } from './colors.js';
import { el, formatTime, put } from './dom.js';

export interface Chrome {
  readonly stage: HTMLElement;
  readonly panel: HTMLElement;
  readonly prev: HTMLButtonElement;
  readonly next: HTMLButtonElement;
  readonly slider: HTMLInputElement;
  showFrame(frame: RadarFrame, index: number, total: number): void;
  setStatus(text: string, kind: 'ok' | 'warn' | 'none'): void;
}

/** `ownship`: some frame names the agent of this worktree, so the legend says how it is drawn. */
export function buildChrome(root: HTMLElement, title: string, ownship: boolean): Chrome {
  const stage = el('div', 'stage');
  const header = el('header', 'card header');
  const heading = el('h1', undefined, title);
  const frameTitle = el('div', 'frame-title');
  const frameAt = el('div', 'frame-at');
  const counts = el('div', 'counts');
  const status = el('div', 'status');
  put(header, heading, frameTitle, frameAt, counts, status);

  const legend = put(el('aside', 'card legend'), el('h2', undefined, T.legendTitle));
  for (const [label, color, shape] of [
    ...(ownship ? ([[T.legendOwnship, OWNSHIP_COLOR, 'diamond']] as const) : []),
    [T.legendAgent, AGENT_COLOR, 'dot big'],
    [T.legendFile, 0x8fa3b8, 'dot small'],
    [T.legendClear, LEVEL_COLOR.clear, 'line thin'],
    [T.legendTA, LEVEL_COLOR.TA, 'line'],
    [T.legendRA, LEVEL_COLOR.RA, 'line thick'],
    [T.legendSymbol, SYMBOL_COLOR, 'line dashed'],
  ] as const) {
    const swatch = el('span', `swatch ${shape}`);
    swatch.style.setProperty('--swatch', cssColor(color));
    legend.append(put(el('div', 'legend-row'), swatch, el('span', undefined, label)));
  }
  legend.append(el('p', 'hint', T.hint));

  const panel = el('aside', 'card panel');
  const steps = el('nav', 'card steps');
  const prev = el('button', 'prev', T.prev);
  const next = el('button', 'next', T.next);
  const slider = el('input', 'slider');
  slider.type = 'range';
  slider.min = '0';
  slider.step = '1';
  const stepLabel = el('span', 'step-label');
  const notes = el('ul', 'notes');
  put(steps, put(el('div', 'step-row'), prev, slider, next, stepLabel), notes);
  put(root, stage, header, legend, panel, steps);

  return {
    stage,
    panel,
    prev,
    next,
    slider,
    showFrame(frame, index, total) {
      frameTitle.textContent = frame.title;
      frameAt.textContent = `${T.updatedAt} ${formatTime(frame.at)}`;
      const c = frame.scan.counts;
      counts.replaceChildren(
        count(Object.keys(frame.scan.positions).length, T.countAgents),
        count(c.pairs, T.countPairs),
        count(Object.keys(frame.scan.fileCoordinates).length, T.countFiles),
        count(c.clear, 'clear', 'level-clear'),
        count(c.TA, 'TA', 'level-TA'),
        count(c.RA, 'RA', 'level-RA'),
      );
      steps.hidden = total < 2 && !(frame.notes && frame.notes.length > 0);
      slider.max = String(total - 1);
      slider.value = String(index);
      slider.hidden = prev.hidden = next.hidden = total < 2;
      prev.disabled = index === 0;
      next.disabled = index === total - 1;
      stepLabel.textContent = total > 1 ? `${T.step} ${index + 1}/${total}` : '';
      notes.replaceChildren(...(frame.notes ?? []).map((note) => el('li', undefined, note)));
    },
    setStatus(text, kind) {
      status.textContent = text;
      status.className = `status ${kind}`;
      status.hidden = kind === 'none';
    },
  };
}

function count(value: number, label: string, className = ''): HTMLElement {
  return put(el('span', `count ${className}`), el('b', undefined, String(value)), ` ${label}`);
}
