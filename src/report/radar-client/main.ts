/**
 * The radar page's entry point (bundled by scripts/bundle-radar.mjs, inlined by renderRadarHtml).
 * Reads the frames from the page's JSON block, draws the current one, steps through a story,
 * and — when served by the radar server — polls the latest scan and updates the scene in place.
 * `window.__radar` exposes what was actually drawn, for the browser test and curious users.
 */
import type { RadarFrame, RadarPageData } from '../radar-html.js';
import { radarPageText as T } from '../../messages/agent-views.js';
import { computeLayout, outgrows } from './layout.js';
import { startPolling } from './live.js';
import { renderAgentPanel, renderEmptyPanel, renderLinkPanel } from './panel.js';
import { type Pick, RadarScene } from './scene.js';
import { buildChrome } from './ui.js';
import './style.css';

export interface RadarState {
  title: string;
  agents: number;
  links: number;
  advisories: number;
  files: number;
  frame: number;
  frames: number;
  updates: number;
  at: number | string;
  live: boolean;
  drawn: { agentPoints: number; linkLines: number; filePoints: number };
  /** How each link line is painted (colour, dashed): symbol links must look different. */
  linkStyles: { a: string; b: string; color: string; dashed: boolean }[];
  /**
   * True once a frame has been rendered with every agent at its place after the last change, so a
   * test (or tool) can await the drawing instead of sleeping through the glide.
   */
  settled: boolean;
  /**
   * Frames drawn so far. The page draws on demand, so on a settled page this stays put until
   * something changes (a new step, a scan, a hover, a resize).
   */
  renders: number;
}

declare global {
  interface Window {
    __radar?: RadarState;
  }
}

/** Same id as DATA_ELEMENT_ID in ../radar-html.ts. */
const DATA_ELEMENT_ID = 'airspace-radar-data';

const data = JSON.parse(document.getElementById(DATA_ELEMENT_ID)?.textContent ?? 'null') as RadarPageData;
const frames: RadarFrame[] = [...data.frames];
const chrome = buildChrome(
  document.body,
  data.title,
  frames.some((f) => f.ownship),
);
let layout = computeLayout(frames.map((f) => f.scan));
let index = 0;
let updates = 0;
let pinned: Pick = null;
const live = data.poll !== null && location.protocol.startsWith('http');

const scene = new RadarScene(
  chrome.stage,
  (pick, click) => {
    if (click) pinned = pick;
    else if (pinned) return;
    showPick(pick);
  },
  (settled, renders) => {
    if (!window.__radar) return;
    window.__radar.renders = renders;
    if (window.__radar.settled !== settled) window.__radar.settled = settled;
  },
);

function showPick(pick: Pick): void {
  scene.setHighlight(pick);
  const scan = frames[index]!.scan;
  if (!pick) renderEmptyPanel(chrome.panel);
  else if (pick.kind === 'link') renderLinkPanel(chrome.panel, pick.link);
  else
    renderAgentPanel(chrome.panel, pick.id, scan, (link) => {
      pinned = { kind: 'link', link };
      showPick(pinned);
    });
}

/** After a new scan the pinned pick is looked up again by id: its numbers may have changed. */
function refreshPick(): void {
  const scan = frames[index]!.scan;
  if (pinned?.kind === 'agent' && !(pinned.id in scan.positions)) pinned = null;
  if (pinned?.kind === 'link') {
    const { a, b } = pinned.link;
    const link = scan.links.find((l) => l.a === a && l.b === b);
    pinned = link ? { kind: 'link', link } : null;
  }
  showPick(pinned);
}

function show(next: number, animate: boolean): void {
  index = Math.max(0, Math.min(frames.length - 1, next));
  const frame = frames[index]!;
  scene.apply(frame.scan, layout, animate, frame.ownship ?? null);
  chrome.showFrame(frame, index, frames.length);
  refreshPick();
  window.__radar = {
    title: frame.title,
    agents: Object.keys(frame.scan.positions).length,
    links: frame.scan.links.length,
    advisories: frame.scan.advisories.length,
    files: Object.keys(frame.scan.fileCoordinates).length,
    frame: index,
    frames: frames.length,
    updates,
    at: frame.at,
    live,
    drawn: scene.content.drawn,
    linkStyles: scene.content.linkStyles,
    // The next rendered frame says whether it shows the new scan in place.
    settled: false,
    renders: scene.renders,
  };
}

chrome.prev.addEventListener('click', () => show(index - 1, true));
chrome.next.addEventListener('click', () => show(index + 1, true));
chrome.slider.addEventListener('input', () => show(Number(chrome.slider.value), true));
document.addEventListener('keydown', (event) => {
  if (event.target instanceof HTMLInputElement && event.target.type !== 'range') return;
  if (event.key === 'ArrowLeft') show(index - 1, true);
  if (event.key === 'ArrowRight') show(index + 1, true);
});

show(0, false);
chrome.setStatus('', 'none');

if (live && data.poll) {
  chrome.setStatus(T.live, 'ok');
  startPolling(data.poll, {
    onScan(latest) {
      if (outgrows(layout, latest.scan)) layout = computeLayout([latest.scan]);
      frames[frames.length - 1] = { title: frames[frames.length - 1]!.title, at: latest.at, scan: latest.scan, ownship: latest.ownship };
      updates += 1;
      show(frames.length - 1, true);
      chrome.setStatus(T.live, 'ok');
    },
    onStatus(kind) {
      chrome.setStatus(kind === 'failed' ? T.liveFailed : kind === 'lost' ? T.liveLost : T.liveWaiting, 'warn');
    },
  });
}
